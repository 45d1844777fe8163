// hard.h -- hard attention: each query takes the value of its best key.
//
// Soft attention returns a weighted average; hard attention returns one value,
// v_j* with j* = argmax_j q_i . k_j. It is the limit of softmax attention as
// the temperature goes to 0 (when the maximum is unique). Its output is
// piecewise constant in q and k: the derivative is 0 almost everywhere and
// undefined where the argmax switches, so it cannot be trained by gradient
// descent (models that use it train with sampling, e.g. REINFORCE).
#ifndef HARD_H
#define HARD_H

// q (n, d_k), k (m, d_k), v (m, d_v), mask (n, m) or NULL -> out (n, d_v),
// idx (n,) or NULL: out_i = v[idx_i], idx_i = the visible j with the largest
// q_i . k_j (the first on ties, as torch.argmax). A row with nothing visible
// (or m = 0) gives idx -1 and a zero output.
// (torch: v[(q @ k.T).masked_fill(~mask, -inf).argmax(-1)])
void hard_forward(const float *q, const float *k, const float *v,
                  const unsigned char *mask, float *out, int *idx, int n, int m,
                  int d_k, int d_v);

#endif
