// linear.c -- y = x W + b, its gradients, and weight initialisation.
#include "base/linear.h"

#include <math.h>

#include "base/mat.h"

// snippet: linear_forward
void linear_forward(const float *x, const float *w, const float *b, float *y,
                    int n, int d_in, int d_out) {
    mat_mul(x, w, y, n, d_in, d_out);            // y = x w
    if (b) mat_add_row(y, b, n, d_out);          // y += b, on every row
}
// end snippet

// snippet: linear_backward
// Inverts: y = x w + b.
void linear_backward(const float *x, const float *w, const float *dy,
                     float *dx, float *dw, float *db, int n, int d_in, int d_out) {
    if (dx)   // dx[i][p] += sum_j dy[i][j] w[p][j]
        for (int i = 0; i < n; i++)
            for (int p = 0; p < d_in; p++)
                dx[i * d_in + p] +=
                    (float)mat_dot(dy + i * d_out, w + p * d_out, d_out);
    if (dw)   // dw[p][j] += sum_i x[i][p] dy[i][j], summed in double
        for (int p = 0; p < d_in; p++)
            for (int j = 0; j < d_out; j++) {
                double acc = 0.0;
                for (int i = 0; i < n; i++)
                    acc += (double)x[i * d_in + p] * dy[i * d_out + j];
                dw[p * d_out + j] += (float)acc;
            }
    if (db)   // db[j] += sum_i dy[i][j], summed in double
        for (int j = 0; j < d_out; j++) {
            double acc = 0.0;
            for (int i = 0; i < n; i++) acc += dy[i * d_out + j];
            db[j] += (float)acc;
        }
}
// end snippet

void linear_init_uniform(rng_t *rng, float *w, int d_in, int d_out, float bound) {
    if (d_in < 1 || d_out < 1) return;   // (-1) * (-1) must not mean one weight
    rng_fill_uniform(rng, w, d_in * d_out, -bound, bound);
}

void linear_init_normal(rng_t *rng, float *w, int d_in, int d_out, float std) {
    if (d_in < 1 || d_out < 1) return;
    rng_fill_normal(rng, w, d_in * d_out, 0.0f, std);
}

// snippet: linear_init_xavier
void linear_init_xavier(rng_t *rng, float *w, int d_in, int d_out) {
    if (d_in < 1 || d_out < 1) return;
    float a = sqrtf(6.0f / (float)(d_in + d_out));
    linear_init_uniform(rng, w, d_in, d_out, a);
}
// end snippet
