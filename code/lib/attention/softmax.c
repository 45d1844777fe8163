// softmax.c -- naive and numerically stable softmax.
#include "attention/softmax.h"

#include <math.h>
#include <stddef.h>

// snippet: softmax_naive
void softmax_naive(float *x, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++) {
        x[i] = expf(x[i]);
        sum += x[i];
    }
    for (int i = 0; i < n; i++) x[i] /= sum;
}
// end snippet

// snippet: softmax
void softmax(float *x, int n) {
    if (n < 1) return;                   // an empty row: nothing to normalise
    float max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;                    // every exp(x_i - max) is in (0, 1]
    for (int i = 0; i < n; i++) {
        x[i] = expf(x[i] - max);
        sum += x[i];
    }
    for (int i = 0; i < n; i++) x[i] = (float)(x[i] / sum);
}
// end snippet

void softmax_rows(float *x, int n, int m) {
    for (int i = 0; i < n; i++) softmax(x + (size_t)i * m, m);
}

// snippet: softmax_rows_temp
int softmax_rows_temp(float *x, int n, int m, float t) {
    if (!(t > 0.0f) || isinf(t)) return -1;   // also refuses NaN
    for (int i = 0; i < n && m > 0; i++) {
        float *row = x + (size_t)i * m;
        float max = row[0];
        for (int j = 1; j < m; j++)
            if (row[j] > max) max = row[j];
        // Subtract the max first, then divide: (x_j - max) / t is exact for
        // logits near each other, however large they are.
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            row[j] = expf((row[j] - max) / t);
            sum += row[j];
        }
        for (int j = 0; j < m; j++) row[j] = (float)(row[j] / sum);
    }
    return 0;
}
// end snippet

// snippet: softmax_rows_masked
void softmax_rows_masked(float *x, const unsigned char *mask, int n, int m) {
    for (int i = 0; i < n; i++) {
        float *row = x + (size_t)i * m;
        const unsigned char *vis = mask ? mask + (size_t)i * m : 0;
        float max = -INFINITY;
        for (int j = 0; j < m; j++)
            if ((!vis || vis[j]) && row[j] > max) max = row[j];
        if (max == -INFINITY) {          // nothing visible: attend to nothing
            for (int j = 0; j < m; j++) row[j] = 0.0f;
            continue;
        }
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            row[j] = (!vis || vis[j]) ? expf(row[j] - max) : 0.0f;
            sum += row[j];
        }
        for (int j = 0; j < m; j++) row[j] = (float)(row[j] / sum);
    }
}
// end snippet

// snippet: softmax_jacobian
void softmax_jacobian(const float *p, float *jac, int n) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            jac[i * n + j] = p[i] * ((i == j ? 1.0f : 0.0f) - p[j]);
}
// end snippet

// snippet: softmax_backward
void softmax_backward(const float *p, const float *dp, float *dx, int n) {
    double dot = 0.0;                    // <p, dp>: the part every x_j shares
    for (int j = 0; j < n; j++) dot += (double)p[j] * dp[j];
    for (int i = 0; i < n; i++) dx[i] = (float)(p[i] * (dp[i] - dot));
}
// end snippet
