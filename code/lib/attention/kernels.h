// kernels.h -- two more kernels for chapter 1's regression: the nearest
// neighbour (hard attention) and the Laplace kernel.
//
// Nadaraya-Watson with the Gaussian kernel (kernel_regression.h) weighs every
// training point by exp(-u^2 / (2 h^2)). Shrink h to 0 and all the weight goes
// to the nearest point; swap u^2 for |u| and the tails become heavier.
#ifndef KERNELS_H
#define KERNELS_H

// x_query (n_q,), x_train (n_t,), y_train (n_t,) -> y_pred (n_q,): y_pred[i] is
// the y of the training point nearest to x_query[i] (|x_query[i] - x_train[j]|
// smallest; a tie goes to the lowest j). n_t = 0: predictions 0. Returns 0, or -1
// (y_pred untouched) for a negative size.
// (torch: yt[(xq[:, None] - xt[None, :]).abs().argmin(dim=1)])
int kern_nearest_predict(const float *x_query, int n_q, const float *x_train,
                         const float *y_train, int n_t, float *y_pred);

// x_query (n_q,), x_train (n_t,) -> w (n_q, n_t): row i holds the normalised
// Laplace kernel weights exp(-|x_query[i] - x_train[j]| / h) / sum over j, computed
// without underflow (a row sums to 1 even for queries far from every point).
// n_q = 0 or n_t = 0: nothing written. Returns 0; -1 (w untouched) if h <= 0, NaN,
// or a size is negative.
// (torch: (-(xq[:, None] - xt[None, :]).abs() / h).softmax(dim=-1))
int kern_laplace_weights(const float *x_query, int n_q, const float *x_train,
                         int n_t, float h, float *w);

#endif
