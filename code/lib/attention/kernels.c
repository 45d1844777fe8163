// kernels.c -- the nearest-neighbour and Laplace kernels of chapter 1's exercises.
#include "attention/kernels.h"

#include <math.h>

int kern_nearest_predict(const float *x_query, int n_q, const float *x_train,
                         const float *y_train, int n_t, float *y_pred) {
    if (n_q < 0 || n_t < 0) return -1;
    for (int i = 0; i < n_q; i++) {
        float pred = 0.0f;
        // BEGIN SOLUTION
        float best = INFINITY;
        for (int j = 0; j < n_t; j++) {
            float u = fabsf(x_query[i] - x_train[j]);
            if (u < best) {
                best = u;
                pred = y_train[j];
            }
        }
        // END SOLUTION
        y_pred[i] = pred;
    }
    return 0;
}

int kern_laplace_weights(const float *x_query, int n_q, const float *x_train,
                         int n_t, float h, float *w) {
    if (!(h > 0.0f) || n_q < 0 || n_t < 0) return -1;
    for (int i = 0; i < n_q; i++) {
        float *row = w + (long)i * n_t;
        // BEGIN SOLUTION
        double near = INFINITY;   // the smallest distance: its weight is the largest
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            if (u < near) near = u;
        }
        double sum = 0.0;
        for (int j = 0; j < n_t; j++) {
            double u = fabs((double)x_query[i] - x_train[j]);
            row[j] = (float)exp(-(u - near) / h);
            sum += row[j];
        }
        for (int j = 0; j < n_t; j++) row[j] = (float)(row[j] / sum);
        // END SOLUTION
    }
    return 0;
}
