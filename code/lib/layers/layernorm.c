// layernorm.c -- per-row normalisation with a learned scale and shift.
#include "layers/layernorm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int layernorm_alloc(layernorm_params_t *p, int d) {
    p->d = d;
    p->gamma = p->beta = NULL;
    if (d < 1) return -1;
    p->gamma = malloc((size_t)d * sizeof(float));
    p->beta = malloc((size_t)d * sizeof(float));
    if (!p->gamma || !p->beta) {
        layernorm_free(p);
        return -1;
    }
    for (int j = 0; j < d; j++) {
        p->gamma[j] = 1.0f;   // start as the identity scale ...
        p->beta[j] = 0.0f;    // ... and no shift
    }
    return 0;
}

void layernorm_free(layernorm_params_t *p) {
    free(p->gamma);
    free(p->beta);
    p->gamma = p->beta = NULL;
}

// snippet: layernorm_forward
int layernorm_forward(const float *x, const float *gamma, const float *beta, float *y,
                      int n, int d, float eps) {
    if (!(eps >= 0.0f) || isinf(eps)) return -1;    // also refuses NaN
    for (int i = 0; i < n && d > 0; i++) {
        const float *row = x + (size_t)i * d;
        float *out = y + (size_t)i * d;
        double mean = 0.0, var = 0.0;
        for (int j = 0; j < d; j++) mean += row[j];
        mean /= d;
        for (int j = 0; j < d; j++) var += (row[j] - mean) * (row[j] - mean);
        var /= d;                                  // biased: divide by d, not d - 1
        double inv_std = 1.0 / sqrt(var + eps);
        for (int j = 0; j < d; j++)                // row may be out: read, then write
            out[j] = (float)(gamma[j] * (row[j] - mean) * inv_std + beta[j]);
    }
    return 0;
}
// end snippet

size_t layernorm_scratch_doubles(int d) { return d > 0 ? 2 * (size_t)d : 0; }

int layernorm_backward(const float *x, const float *gamma, const float *dy, float *dx,
                       float *dgamma, float *dbeta, int n, int d, float eps) {
    if (n < 0 || d < 0) return -1;
    if (n == 0 || d == 0) return 0;
    double *ws = malloc(layernorm_scratch_doubles(d) * sizeof(double));
    if (!ws) return -1;
    int rc = layernorm_backward_ws(x, gamma, dy, dx, dgamma, dbeta, n, d, eps, ws);
    free(ws);
    return rc;
}

// snippet: layernorm_backward_ws
int layernorm_backward_ws(const float *x, const float *gamma, const float *dy,
                          float *dx, float *dgamma, float *dbeta, int n, int d,
                          float eps, double *ws) {
    if (n < 0 || d < 0) return -1;
    if (n == 0 || d == 0) return 0;
    double *sum_g = ws, *sum_b = ws + d;
    memset(ws, 0, layernorm_scratch_doubles(d) * sizeof(double));
    for (int i = 0; i < n; i++) {
        const float *row = x + (size_t)i * d, *g = dy + (size_t)i * d;
        double mean = 0.0, var = 0.0;              // recompute the forward's statistics
        for (int j = 0; j < d; j++) mean += row[j];
        mean /= d;
        for (int j = 0; j < d; j++) var += (row[j] - mean) * (row[j] - mean);
        var /= d;
        const double inv_std = 1.0 / sqrt(var + eps);
        // forward: y = gamma * xhat + beta, xhat = (x - mean) * inv_std
        //   => dgamma += dy * xhat, dbeta += dy, dxhat = dy * gamma
        //   => dx = inv_std * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))
        double mean_g = 0.0, mean_gx = 0.0;
        for (int j = 0; j < d; j++) {
            const double xhat = (row[j] - mean) * inv_std,
                         dxhat = (double)g[j] * gamma[j];
            sum_g[j] += g[j] * xhat;
            sum_b[j] += g[j];
            mean_g += dxhat;
            mean_gx += dxhat * xhat;
        }
        mean_g /= d;
        mean_gx /= d;
        if (dx)
            for (int j = 0; j < d; j++) {
                const double xhat = (row[j] - mean) * inv_std;
                dx[(size_t)i * d + j] +=
                        (float)(inv_std *
                                ((double)g[j] * gamma[j] - mean_g - xhat * mean_gx));
            }
    }
    for (int j = 0; j < d; j++) {
        if (dgamma) dgamma[j] += (float)sum_g[j];
        if (dbeta) dbeta[j] += (float)sum_b[j];
    }
    return 0;
}
// end snippet
