// self_attention.h -- attention of a sequence over itself.
//
// Two versions. The simplified one has no weights: the rows of x act as
// queries, keys and values at once. The full one first projects x three
// ways, Q = x W_Q, K = x W_K, V = x W_V, and then runs scaled dot-product
// attention (attention.h) on Q, K, V.
//
// Edges: as in attention.h (n = 0 writes nothing, a width of 0 gives uniform
// weights, never NaN); self_attn_alloc refuses sizes below 1 (-1).
#ifndef SELF_ATTENTION_H
#define SELF_ATTENTION_H

#include "base/rng.h"

// x (n, d), mask (n, n) or NULL -> weights (n, n) = softmax(x x^T / sqrt(d)),
//                                  out (n, d) = weights x
// Identical to self_attn_forward with W_Q = W_K = W_V = the identity.
// mask: 1 = visible, 0 = hidden, as in attention_forward.
// (torch: (x @ x.T / d ** 0.5).softmax(-1) @ x; from torch 2.0 on also
//  F.scaled_dot_product_attention(x, x, x))
void self_attn_simple(const float *x, const unsigned char *mask,
                           float *out, float *weights, int n, int d);

// snippet: self_attn_params_t
// The trainable part of a self-attention layer.
typedef struct {
    int d_model, d_k, d_v;     // input width, query/key width, value width
    float *w_q;                // (d_model, d_k)
    float *w_k;                // (d_model, d_k)
    float *w_v;                // (d_model, d_v)
    float *b_q, *b_k, *b_v;    // (d_k,), (d_k,), (d_v,), or NULL: no bias
} self_attn_params_t;
// end snippet

// Allocate zeroed weights (and zeroed biases if with_bias) for the given
// sizes. Returns 0, or -1 if a size is below 1 or memory ran out (then
// nothing stays allocated).
int self_attn_alloc(self_attn_params_t *p, int d_model, int d_k, int d_v,
                    int with_bias);

// Free what self_attn_alloc allocated; safe on a zeroed struct.
void self_attn_free(self_attn_params_t *p);

// Fill W_Q, W_K, W_V with Xavier-uniform samples (linear_init_xavier), in
// that order; biases, if any, become 0.
void self_attn_init(self_attn_params_t *p, rng_t *rng);

// x (n, d_model), mask (n, n) or NULL
//   -> q (n, d_k), k (n, d_k), v (n, d_v), weights (n, n), out (n, d_v)
// weights = softmax(q k^T / sqrt(d_k)), out = weights v. The caller owns all
// buffers; q, k, v and weights are returned so they can be inspected.
// (torch: q, k, v = x @ W_q, x @ W_k, x @ W_v;
//         out = attention_forward's torch expression (attention.h) on q, k, v)
void self_attn_forward(const self_attn_params_t *p, const float *x,
                       const unsigned char *mask, float *q, float *k, float *v,
                       float *weights, float *out, int n);

#endif
