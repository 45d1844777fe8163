// linear_attention.h -- linear attention (Katharopoulos et al. 2020).
//
// Softmax attention weighs key j for query i by exp(q_i . k_j / sqrt(d_k)).
// Linear attention replaces that by phi(q_i) . phi(k_j) with the feature map
// phi(x) = elu(x) + 1 (positive everywhere), so that
//   out_i = phi(q_i)^T S / (phi(q_i) . z),   S = sum_j phi(k_j) v_j^T,
//                                           z = sum_j phi(k_j)
// S (d_k, d_v) and z (d_k,) do not depend on i: they are built once, in
// O(m d_k d_v), and each query costs O(d_k d_v). Nothing of size (n, m) is made.
// It is a different model from softmax attention, not an approximation of it.
#ifndef LINEAR_ATTENTION_H
#define LINEAR_ATTENTION_H

#include <stddef.h>

// x (count,) -> phi (count,) = elu(x) + 1 = x + 1 if x > 0, else exp(x).
// phi may alias x.   (torch: F.elu(x) + 1)
void linattn_feature(const float *x, float *phi, long count);

// The same thing computed the quadratic way, for checking: weights (n, m) with
// weights[i][j] = phi(q_i) . phi(k_j) / sum_l phi(q_i) . phi(k_l) (visible j
// only; mask NULL = all visible), out (n, d_v) = weights v. A row with no
// visible key gives zeros. Returns 0, or -1 if memory runs out or a size is
// negative.
int linattn_forward_quadratic(const float *q, const float *k, const float *v,
                              const unsigned char *mask, float *out, float *weights,
                              int n, int m, int d_k, int d_v);

// q (n, d_k), k (m, d_k), v (m, d_v) -> out (n, d_v), every query seeing every
// key, in O((n + m) d_k d_v) by the reordering phi(Q) (phi(K)^T V). m = 0
// gives a zero output. Returns 0, or -1 if memory runs out or a size is negative.
int linattn_forward(const float *q, const float *k, const float *v, float *out,
                    int n, int m, int d_k, int d_v);

// Causal linear attention as a recurrence (the "RNN view"): query i sees keys
// 0..i, q (n, d_k), k (n, d_k), v (n, d_v) -> out (n, d_v), with the running
// state S_i = S_{i-1} + phi(k_i) v_i^T, z_i = z_{i-1} + phi(k_i). Equal to
// linattn_forward_quadratic with a causal mask. Returns 0 or -1 (no memory, or
// a negative size).
int linattn_causal(const float *q, const float *k, const float *v, float *out,
                   int n, int d_k, int d_v);

// Bytes linattn_forward and linattn_causal allocate while they run: the state
// S and z in double and phi of one key/query row: independent of n.
size_t linattn_work_bytes(int d_k, int d_v);

#endif
