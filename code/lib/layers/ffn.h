// ffn.h -- the position-wise feed-forward network of a Transformer block.
//
//     FFN(x) = ReLU(x W_1 + b_1) W_2 + b_2
//
// applied to every token (row) on its own, with the same weights: widen from
// d_model to d_ff (512 -> 2048 in Vaswani et al.), apply ReLU, narrow back.
#ifndef FFN_H
#define FFN_H

#include "base/rng.h"

// snippet: ffn_params_t
typedef struct {
    int d_model, d_ff;   // token width, hidden width
    float *w1;           // (d_model, d_ff)
    float *b1;           // (d_ff,)
    float *w2;           // (d_ff, d_model)
    float *b2;           // (d_model,)
} ffn_params_t;
// end snippet

// Allocate zeroed parameters. Returns 0, or -1 if a size is not positive or
// memory ran out (then nothing stays allocated).
int ffn_alloc(ffn_params_t *p, int d_model, int d_ff);

// Free what ffn_alloc allocated; safe on a zeroed struct and twice.
void ffn_free(ffn_params_t *p);

// W_1 then W_2 <- Xavier uniform (linear_init_xavier); b_1 = b_2 = 0.
void ffn_init(ffn_params_t *p, rng_t *rng);

// Number of parameters: 2 d_model d_ff + d_ff + d_model.
long ffn_param_count(const ffn_params_t *p);

// x (n, d_model) -> y (n, d_model); hidden (n, d_ff) is the caller's workspace
// and holds ReLU(x W_1 + b_1) afterwards. y must not overlap x or hidden.
// n = 0 (or below): nothing written.
// (torch: nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(),
//                       nn.Linear(d_ff, d_model)))
void ffn_forward(const ffn_params_t *p, const float *x, float *hidden, float *y, int n);

// Gradients of ffn_forward, given its input x (n, d_model), the hidden
// (n, d_ff) it left behind (after the ReLU) and dy (n, d_model) = dLoss/dy.
// Accumulate (+=): g's w1, b1, w2, b2 (shaped like p's) and dx (n, d_model),
// which may be NULL. scratch: n * d_ff floats. n < 1 does nothing.
// (torch: autograd through the nn.Sequential above)
void ffn_backward(const ffn_params_t *p, ffn_params_t *g, const float *x,
                  const float *hidden, const float *dy, float *dx, int n,
                  float *scratch);

#endif
