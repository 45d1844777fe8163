// tmat.c -- matrix products for training, in loop orders that vectorise.
#include "train/tmat.h"

#include <string.h>

enum { JB = 16 };   // output columns kept in registers at once

// The forward product, y[i][j] += sum_p x[i][p] w[p][j], summed in order of p.
// A block of JB outputs of two rows lives in local accumulators while p runs,
// so y is read and written once, not k times.
void tmat_mul_acc(const float *x, const float *w, float *y, int n, int k, int m) {
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        const float *x0 = x + (size_t)i * k, *x1 = x0 + k;
        float *y0 = y + (size_t)i * m, *y1 = y0 + m;
        int j0 = 0;
        for (; j0 + JB <= m; j0 += JB) {
            float a0[JB], a1[JB];
            for (int j = 0; j < JB; j++) {
                a0[j] = y0[j0 + j];
                a1[j] = y1[j0 + j];
            }
            for (int p = 0; p < k; p++) {
                const float *wp = w + (size_t)p * m + j0;
                float u0 = x0[p], u1 = x1[p];
                for (int j = 0; j < JB; j++) {
                    a0[j] += u0 * wp[j];
                    a1[j] += u1 * wp[j];
                }
            }
            for (int j = 0; j < JB; j++) {
                y0[j0 + j] = a0[j];
                y1[j0 + j] = a1[j];
            }
        }
        for (int p = 0; p < k; p++)          // the last m % JB columns
            for (int j = j0; j < m; j++) {
                y0[j] += x0[p] * w[(size_t)p * m + j];
                y1[j] += x1[p] * w[(size_t)p * m + j];
            }
    }
    for (; i < n; i++)                        // an odd last row
        for (int p = 0; p < k; p++)
            for (int j = 0; j < m; j++)
                y[(size_t)i * m + j] += x[(size_t)i * k + p] * w[(size_t)p * m + j];
}

// Inverts: y = x w (for x). dx[i][p] += sum_j dy[i][j] w[p][j], with four
// partial sums so the loop is not one long dependency chain.
void tmat_mul_bt_acc(const float *dy, const float *w, float *dx, int n, int k, int m) {
    for (int i = 0; i < n; i++) {
        const float *dyi = dy + (size_t)i * m;
        for (int p = 0; p < k; p++) {
            const float *wp = w + (size_t)p * m;
            float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            int j = 0;
            for (; j + 4 <= m; j += 4) {
                s0 += dyi[j] * wp[j];
                s1 += dyi[j + 1] * wp[j + 1];
                s2 += dyi[j + 2] * wp[j + 2];
                s3 += dyi[j + 3] * wp[j + 3];
            }
            for (; j < m; j++) s0 += dyi[j] * wp[j];
            dx[(size_t)i * k + p] += (s0 + s1) + (s2 + s3);
        }
    }
}

// Inverts: y = x w (for w). dw[p][j] += sum_i x[i][p] dy[i][j], summed in
// order of i, a block of JB columns of dw in local accumulators.
void tmat_at_mul_acc(const float *x, const float *dy, float *dw, int n, int k, int m) {
    for (int p = 0; p < k; p++) {
        float *dwp = dw + (size_t)p * m;
        int j0 = 0;
        for (; j0 + JB <= m; j0 += JB) {
            float a[JB];
            for (int j = 0; j < JB; j++) a[j] = dwp[j0 + j];
            for (int i = 0; i < n; i++) {
                float xp = x[(size_t)i * k + p];
                const float *dyi = dy + (size_t)i * m + j0;
                for (int j = 0; j < JB; j++) a[j] += xp * dyi[j];
            }
            for (int j = 0; j < JB; j++) dwp[j0 + j] = a[j];
        }
        for (int i = 0; i < n; i++)
            for (int j = j0; j < m; j++)
                dwp[j] += x[(size_t)i * k + p] * dy[(size_t)i * m + j];
    }
}

void tmat_set_rows(float *y, const float *b, int n, int m) {
    for (int i = 0; i < n; i++) {
        if (b) memcpy(y + (size_t)i * m, b, (size_t)m * sizeof *y);
        else memset(y + (size_t)i * m, 0, (size_t)m * sizeof *y);
    }
}

// Inverts: y[i][:] = ... + b.
void tmat_sum_rows_acc(const float *dy, float *db, int n, int m) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) db[j] += dy[(size_t)i * m + j];
}
