// bandwidth.h -- choosing the width h of chapter 1's Gaussian kernel regression:
// the leave-one-out prediction and the derivative of a prediction with respect to h.
//
// With scores s_j = -(x - x_j)^2 / (2 h^2) and weights a_j = softmax(s)_j, the
// Nadaraya-Watson prediction is f(x) = sum_j a_j y_j. Leave-one-out predicts each
// training point from all the others; its squared error is a score for h that
// does not reward h -> 0. The derivative df/dh lets h be fitted by gradient descent.
#ifndef BANDWIDTH_H
#define BANDWIDTH_H

// x (n,), y (n,) training pairs -> y_loo (n,): y_loo[i] is the Gaussian
// Nadaraya-Watson prediction at x[i] from the other n - 1 points (j != i),
// computed without underflow (a point far from all the others still gets a
// finite prediction). n = 1: y_loo[0] = 0 (no other point). n = 0: nothing.
// Returns 0; -1 (y_loo untouched) if h <= 0, NaN, or n < 0.
int bw_loo_predict(const float *x, const float *y, int n, float h, float *y_loo);

// x_query (n_q,), x_train (n_t,), y_train (n_t,) -> dfdh (n_q,): the derivative
// with respect to h of the Gaussian Nadaraya-Watson prediction at each query,
//     df/dh = sum_j a_j (y_j - f) (x - x_j)^2 / h^3.
// n_t = 0: dfdh = 0. Returns 0; -1 (dfdh untouched) if h <= 0, NaN, or a size is
// negative. (torch: autograd of nw_predict(nw_weights(...)) with respect to h)
int bw_predict_dh(const float *x_query, int n_q, const float *x_train,
                  const float *y_train, int n_t, float h, float *dfdh);

#endif
