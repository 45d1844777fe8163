// mat.c -- naive, readable loops; fast enough for every example in the book.
#include "base/mat.h"

#include <math.h>

// snippet: mat_mul
// c (n, m) = a (n, k) b (k, m): each c_ij sums its k products in order of p, in
// double. The loop over p runs outside the loop over j, so that b is read row
// by row, as it lies in memory; the sums of MAT_JB columns wait in acc.
void mat_mul(const float *a, const float *b, float *c, int n, int k, int m) {
    enum { MAT_JB = 64 };
    for (int i = 0; i < n; i++) {
        for (int j0 = 0; j0 < m; j0 += MAT_JB) {
            int w = m - j0 < MAT_JB ? m - j0 : MAT_JB;
            double acc[MAT_JB] = {0.0};
            for (int p = 0; p < k; p++) {
                double aip = a[i * k + p];
                const float *bp = b + p * m + j0;
                for (int j = 0; j < w; j++) acc[j] += aip * bp[j];
            }
            for (int j = 0; j < w; j++) c[i * m + j0 + j] = (float)acc[j];
        }
    }
}
// end snippet

void mat_mul_bt(const float *a, const float *b, float *c, int n, int k, int m) {
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            c[i * m + j] = (float)mat_dot(a + i * k, b + j * k, k);
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

double mat_dot(const float *a, const float *b, int n) {
    double acc = 0.0;
    for (int i = 0; i < n; i++) acc += (double)a[i] * b[i];
    return acc;
}

double mat_norm(const float *a, int n) {
    return sqrt(mat_dot(a, a, n));
}

double mat_max_abs_diff(const float *a, const float *b, size_t size) {
    double worst = 0.0;
    for (size_t i = 0; i < size; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (isnan(d)) return d;
        if (d > worst) worst = d;
    }
    return worst;
}

double mat_sq_dist(const float *a, const float *b, size_t size) {
    double acc = 0.0;
    for (size_t i = 0; i < size; i++) {
        double d = (double)a[i] - (double)b[i];
        acc += d * d;
    }
    return acc;
}
