// kernel_regression.c -- Nadaraya-Watson regression: attention on numbers.
#include "attention/kernel_regression.h"

#include <math.h>

#include "base/mat.h"
#include "attention/softmax.h"

double nw_gaussian_kernel(double u, double h) {
    if (!(h > 0.0)) return NAN;   // no width: no kernel (also for NaN)
    return exp(-u * u / (2.0 * h * h));
}

// snippet: nw_weights
int nw_weights(const float *x_query, int n_q, const float *x_train, int n_t,
               float h, float *w) {
    if (!(h > 0.0f) || n_q < 0 || n_t < 0) return -1;
    for (int i = 0; i < n_q; i++) {
        float *row = w + i * n_t;
        for (int j = 0; j < n_t; j++) {
            float u = x_query[i] - x_train[j];
            row[j] = -u * u / (2.0f * h * h);   // score = log K(u)
        }
        softmax(row, n_t);   // K(u_j) / sum_l K(u_l), computed stably
    }
    return 0;
}
// end snippet

// snippet: nw_predict
void nw_predict(const float *w, const float *y_train, float *y_pred,
                int n_q, int n_t) {
    mat_mul(w, y_train, y_pred, n_q, n_t, 1);   // (n_q, n_t) x (n_t, 1)
}
// end snippet
