// online.h -- exact attention in O(n) extra memory: the online softmax
// (Milakov & Gimelshein 2018) streamed over blocks of keys, the idea behind
// FlashAttention (Dao et al. 2022) and Rabe & Staats (2021).
//
// One query at a time, keys arrive in blocks. The state after some keys is
//   max  M = the largest score seen so far,
//   sum  L = sum_j exp(s_j - M),
//   acc  A = sum_j exp(s_j - M) v_j          (d_v,)
// and A / L is the softmax-weighted sum of the values seen so far. When a
// block raises the max to M', the old terms are rescaled by exp(M - M').
#ifndef ONLINE_H
#define ONLINE_H

#include <stddef.h>

typedef struct {
    float max;      // M; -INFINITY until a visible score arrives
    double sum;     // L
    double *acc;    // A (d_v,), caller-owned
    int d_v;
} online_state_t;

// Start an empty state over acc (d_v,) (zeroed here).
void online_init(online_state_t *st, double *acc, int d_v);

// scores (count,) of count keys, -INFINITY for a hidden key; v (count, d_v)
// their values -> the state now also covers these keys. count = 0, or a block
// with every key hidden, leaves the state as it was.
void online_update(online_state_t *st, const float *scores, const float *v, int count);

// The state -> out (d_v,) = A / L; all zeros if no visible key was seen.
void online_finish(const online_state_t *st, float *out);

// x (n,) -> softmax(x) in place, with max and normaliser found in one pass
// (then one pass to write): the online softmax for a single row. n = 0: no-op.
void online_softmax(float *x, int n);

// q (n, d_k), k (m, d_k), v (m, d_v), mask (n, m) or NULL -> out (n, d_v),
// equal to attention_forward's out (same mask convention, a fully hidden row
// gives zeros) without ever holding a row of n x m weights: keys are read in
// blocks of block keys. Returns 0; -1 if block < 1, a size is negative or
// memory runs out.
// (torch 2.x: F.scaled_dot_product_attention(q, k, v, attn_mask=mask.bool()); torch
// 1.13 has no such function:
// (q @ k.T / sqrt(d_k)).masked_fill(~mask, -inf).softmax(-1) @ v)
int online_attention(const float *q, const float *k, const float *v,
                     const unsigned char *mask, float *out, int n, int m, int d_k,
                     int d_v, int block);

// Bytes online_attention allocates: block scores and the d_v accumulator.
size_t online_work_bytes(int d_v, int block);

#endif
