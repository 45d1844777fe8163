// softmax.h -- turning scores into probability distributions.
//
// Edges, for every function here: a size of 0 (or below) writes nothing; a
// row of one entry becomes 1 (0 if masked).
#ifndef SOFTMAX_H
#define SOFTMAX_H

// x (n,) -> softmax(x), in place, computed the naive way: exp(x_i) / sum exp.
// Overflows to inf/NaN once some x_i > ~88 (float). Shown for contrast only.
void softmax_naive(float *x, int n);

// x (n,) -> softmax(x), in place. Subtracts max(x) first, so exp() never
// overflows; the result is mathematically the same.
void softmax(float *x, int n);

// x (n, m) -> softmax of every row, in place.   (torch: x.softmax(dim=-1))
void softmax_rows(float *x, int n, int m);

// x (n, m) -> softmax(x / t) of every row, in place; t > 0 is the temperature.
// Subtracts each row's max before dividing by t, so logits of any size keep
// float precision. Returns 0; -1 (x untouched) if t <= 0, t = inf or NaN.
// (torch: (x / t).softmax(dim=-1))
int softmax_rows_temp(float *x, int n, int m, float t);

// x (n, m), mask (n, m) with 1 = visible, 0 = hidden -> softmax of every row
// over its visible entries only; hidden entries become exactly 0. A row with
// no visible entry becomes all zeros (not NaN). mask == NULL: all visible.
void softmax_rows_masked(float *x, const unsigned char *mask, int n, int m);

// p (n,) = softmax(x) -> jac (n, n), jac[i][j] = dp_i / dx_j = p_i (delta_ij - p_j).
// (torch: torch.autograd.functional.jacobian(lambda x: x.softmax(-1), x))
void softmax_jacobian(const float *p, float *jac, int n);

// p (n,) = softmax(x), dp (n,) = dL/dp -> dx (n,) = dL/dx = p * (dp - <p, dp>).
// Inverts "x[i] = expf(x[i] - max); ... x[i] /= sum" of softmax(); dx may alias dp.
void softmax_backward(const float *p, const float *dp, float *dx, int n);

#endif
