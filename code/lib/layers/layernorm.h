// layernorm.h -- layer normalisation over the last dimension (Ba et al., 2016).
//
// Every row (one token's vector) is shifted to mean 0 and scaled to variance 1,
// then given a learned scale gamma and shift beta per feature:
//     y = gamma * (x - mean) / sqrt(var + eps) + beta
// var is the biased variance (divide by d), as in torch.nn.LayerNorm.
#ifndef LAYERNORM_H
#define LAYERNORM_H

#include <stddef.h>

// torch.nn.LayerNorm's default eps.
#define LAYERNORM_EPS 1e-5f

// The learned part: one scale and one shift per feature.
typedef struct {
    int d;           // width of the rows it normalises
    float *gamma;    // (d,), starts at 1
    float *beta;     // (d,), starts at 0
} layernorm_params_t;

// Allocate gamma = 1, beta = 0. Returns 0, or -1 if d < 1 or memory ran out
// (then nothing stays allocated).
int layernorm_alloc(layernorm_params_t *p, int d);

// Free what layernorm_alloc allocated; safe on a zeroed struct and twice.
void layernorm_free(layernorm_params_t *p);

// x (n, d), gamma (d,), beta (d,) -> y (n, d), every row normalised.
// y may be the same buffer as x. n = 0 or d = 0: nothing written. Returns 0;
// -1 (y untouched) if eps < 0, inf or NaN. eps = 0 and a constant row give NaN,
// as in torch. (torch: F.layer_norm(x, (d,), gamma, beta, eps))
int layernorm_forward(const float *x, const float *gamma, const float *beta, float *y,
                      int n, int d, float eps);

// Gradients of layernorm_forward, given its input x (n, d), gamma and
// dy (n, d) = dLoss/dy. Accumulate (+=): dx (n, d), dgamma (d,), dbeta (d,);
// any of them may be NULL to skip it. dx must not overlap x or dy. The sums over
// rows for dgamma and dbeta run in double, in a workspace of 2 d doubles.
// Returns 0 (n or d = 0: nothing to do), or -1 for a negative size or if that
// workspace cannot be allocated (nothing accumulated).
// (torch: autograd through F.layer_norm)
int layernorm_backward(const float *x, const float *gamma, const float *dy, float *dx,
                        float *dgamma, float *dbeta, int n, int d, float eps);

// Doubles of workspace layernorm_backward_ws needs for width d: 2 d (0 if d < 1).
size_t layernorm_scratch_doubles(int d);

// layernorm_backward in the caller's workspace ws (layernorm_scratch_doubles(d)
// doubles, overwritten): never allocates, so it cannot fail inside a training
// step. Returns 0; -1 for a negative size (nothing accumulated).
int layernorm_backward_ws(const float *x, const float *gamma, const float *dy,
                          float *dx, float *dgamma, float *dbeta, int n, int d,
                          float eps, double *ws);

#endif
