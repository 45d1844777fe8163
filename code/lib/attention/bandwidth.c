// bandwidth.c -- leave-one-out prediction and d prediction / d h for the Gaussian
// kernel regression of chapter 1.
#include "attention/bandwidth.h"

#include <math.h>

int bw_loo_predict(const float *x, const float *y, int n, float h, float *y_loo) {
    if (!(h > 0.0f) || n < 0) return -1;
    double c = 1.0 / (2.0 * (double)h * h);
    for (int i = 0; i < n; i++) {
        double pred = 0.0;
        // BEGIN SOLUTION
        double best = -INFINITY;   // the largest score over j != i
        for (int j = 0; j < n; j++) {
            double u = (double)x[i] - x[j];
            if (j != i && -c * u * u > best) best = -c * u * u;
        }
        double sum = 0.0, num = 0.0;
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            double u = (double)x[i] - x[j], k = exp(-c * u * u - best);
            sum += k;
            num += k * y[j];
        }
        pred = sum > 0.0 ? num / sum : 0.0;
        // END SOLUTION
        y_loo[i] = (float)pred;
    }
    return 0;
}

int bw_predict_dh(const float *x_query, int n_q, const float *x_train,
                  const float *y_train, int n_t, float h, float *dfdh) {
    if (!(h > 0.0f) || n_q < 0 || n_t < 0) return -1;
    double hh = h;
    for (int i = 0; i < n_q; i++) {
        double d = 0.0;
        // BEGIN SOLUTION
        double best = -INFINITY;
        for (int j = 0; j < n_t; j++) {
            double u = (double)x_query[i] - x_train[j];
            if (-u * u / (2 * hh * hh) > best) best = -u * u / (2 * hh * hh);
        }
        double sum = 0.0, f = 0.0;
        for (int j = 0; j < n_t; j++) {
            double u = (double)x_query[i] - x_train[j];
            double k = exp(-u * u / (2 * hh * hh) - best);
            sum += k;
            f += k * y_train[j];
        }
        if (sum > 0.0) f /= sum;
        for (int j = 0; j < n_t; j++) {
            double u = (double)x_query[i] - x_train[j];
            double a = exp(-u * u / (2 * hh * hh) - best) / sum;
            d += a * (y_train[j] - f) * u * u / (hh * hh * hh);
        }
        // END SOLUTION
        dfdh[i] = (float)d;
    }
    return 0;
}
