// kernel_regression.h -- Nadaraya-Watson kernel regression as attention.
//
// Given training pairs (x_j, y_j), the prediction at a query x is a weighted
// average of the y_j, with more weight on the x_j close to x:
//
//     f(x) = sum_j alpha(x, x_j) y_j,
//     alpha(x, x_j) = K(x - x_j) / sum_l K(x - x_l),  K(u) = exp(-u^2 / (2 h^2)).
//
// In attention words: x is the query, the x_j are the keys, the y_j are the
// values, and the score is -(x - x_j)^2 / (2 h^2). The width h > 0 decides
// how far the attention reaches.
#ifndef KERNEL_REGRESSION_H
#define KERNEL_REGRESSION_H

// Gaussian kernel of width h > 0: exp(-u^2 / (2 h^2)). NaN if h <= 0 or NaN.
double nw_gaussian_kernel(double u, double h);

// x_query (n_q,), x_train (n_t,) -> w (n_q, n_t), every row sums to 1.
// Row i holds the attention weights of query i over the training points.
// Returns 0 (n_q = 0 or n_t = 0: nothing written), or -1 (w untouched) if
// h <= 0, h is NaN or a size is negative.
// (torch: (-(xq[:, None] - xt[None, :]) ** 2 / (2 * h * h)).softmax(dim=-1))
int nw_weights(const float *x_query, int n_q, const float *x_train, int n_t,
               float h, float *w);

// w (n_q, n_t), y_train (n_t,) -> y_pred (n_q,) = w y_train   (torch: w @ yt)
// n_t = 0: predictions 0.
void nw_predict(const float *w, const float *y_train, float *y_pred,
                int n_q, int n_t);

#endif
