// topk.h -- top-k attention: each query keeps only its k largest scores.
//
// Scores q_i . k_j / sqrt(d_k) as in chapter 2; of each row, only the `top`
// largest survive (a tie goes to the lower key index), the softmax runs over
// them and the others get weight 0. top >= m is ordinary attention.
#ifndef TOPK_H
#define TOPK_H

// q (n, d_k), k (m, d_k), v (m, d_v) -> out (n, d_v). m = 0: out = 0; n = 0: nothing.
// Allocates m floats. Returns 0; -1 (out untouched) if top < 1, a size is negative
// or the allocation fails.
// (torch: s = q @ k.T / d_k ** 0.5; kth = s.topk(top).values[:, -1:];
//  (s.masked_fill(s < kth, -inf)).softmax(-1) @ v, ties aside)
int topk_forward(const float *q, const float *k, const float *v, float *out, int n,
                 int m, int d_k, int d_v, int top);

#endif
