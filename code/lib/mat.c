// mat.c -- naive, readable loops; fast enough for every example in the book.
#include "mat.h"

#include <math.h>

// snippet: mat_mul
void mat_mul(const float *a, const float *b, float *c, int n, int k, int m) {
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            double acc = 0.0;
            for (int p = 0; p < k; p++) acc += (double)a[i * k + p] * b[p * m + j];
            c[i * m + j] = (float)acc;
        }
    }
}
// end snippet

void mat_mul_bt(const float *a, const float *b, float *c, int n, int k, int m) {
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            c[i * m + j] = (float)vec_dot(a + i * k, b + j * k, k);
        }
    }
}

void mat_transpose(const float *a, float *t, int n, int m) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) t[j * n + i] = a[i * m + j];
}

void mat_scale(float *x, int n, float s) {
    for (int i = 0; i < n; i++) x[i] *= s;
}

void mat_add(float *y, const float *x, int n) {
    for (int i = 0; i < n; i++) y[i] += x[i];
}

void mat_add_row(float *x, const float *b, int n, int m) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) x[i * m + j] += b[j];
}

double vec_dot(const float *a, const float *b, int n) {
    double acc = 0.0;
    for (int i = 0; i < n; i++) acc += (double)a[i] * b[i];
    return acc;
}

double vec_norm(const float *a, int n) {
    return sqrt(vec_dot(a, a, n));
}
