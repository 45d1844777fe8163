// flash_backward.h -- the gradients of exact attention without the (n, m) weight
// matrix: FlashAttention's backward (Dao et al. 2022; the loop order of Dao 2023).
//
// The forward (tiled_attention in fast/tiled.h) keeps one number per query row,
// its log-sum-exp L_i. That is enough to recompute any weight on demand,
// p_ij = exp(q_i . k_j / sqrt(d_k) - L_i), so the backward walks the same tiles
// again and never stores more than a tile of weights. Per tile, with
// D_i = dout_i . out_i (one number per row, computed first):
//   p   = exp(s - L)             the weights, recomputed
//   dv += p^T dout               dp = dout v^T
//   ds  = p * (dp - D)           the softmax backward, in one line
//   dk += ds^T q / sqrt(d_k)     dq += ds k / sqrt(d_k)
// Each block of keys is one task: its dk and dv rows belong to it alone; dq rows
// are shared by all key blocks, so each thread adds into its own copy and the
// copies are summed at the end, in thread order.
#ifndef FLASH_BACKWARD_H
#define FLASH_BACKWARD_H

#include <stddef.h>

enum { FLASH_BQ = 64, FLASH_BK = 64 };

// Working memory beyond inputs and outputs: D (h n floats), per thread a fixed
// set of tiles, and for each thread past the first one copy of dq: O(n).
// q (h, n, d_k), k (h, m, d_k), v (h, m, d_v), out (h, n, d_v), dout (h, n, d_v),
// lse (h, n) -> dq (h, n, d_k), dk (h, m, d_k), dv (h, m, d_v)
//   gradients of out = softmax(q k^T / sqrt(d_k)) v (causal: key j seen by query
//   i only when j <= i), given the forward's out and lse (tiled_attention) and
//   dout = dLoss/dout. Writes (does not accumulate) dq, dk, dv. A key no query
//   sees gets zero gradients.
// Returns 0; -1 on sizes below 1 (nothing written) or when memory runs out.
// (torch: autograd of (q @ k.transpose(-1, -2) / sqrt(d_k)).softmax(-1) @ v)
int flash_attention_backward(const float *q, const float *k, const float *v,
                             const float *out, const float *dout, const float *lse,
                             float *dq, float *dk, float *dv, int h, int n, int m,
                             int d_k, int d_v, int causal);

#endif
