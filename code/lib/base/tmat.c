// tmat.c -- matrix products for training, in loop orders that vectorise.
#include "base/tmat.h"

#include <string.h>

enum { JB = 16 };   // output columns kept in registers at once

// Four floats as one value: GCC's and Clang's vector extension. Arithmetic on
// it is element by element, so every output below is still summed one term at
// a time in a fixed order, exactly as the scalar loops would sum it; the
// extension only makes the compiler keep the accumulators in registers (as
// plain float arrays, GCC -O2 keeps them on the stack and stores them after
// every term).
typedef float v4f __attribute__((vector_size(16)));

static inline v4f load4(const float *p) {
    v4f v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void store4(float *p, v4f v) { memcpy(p, &v, sizeof v); }
static inline v4f splat4(float x) { return (v4f){x, x, x, x}; }

// The forward product, y[i][j] += sum_p x[i][p] w[p][j], summed in order of p.
// A block of JB outputs of two rows lives in registers while p runs, so y is
// read and written once, not k times.
void tmat_mul_acc(const float *x, const float *w, float *y, int n, int k, int m) {
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        const float *x0 = x + (size_t)i * k, *x1 = x0 + k;
        float *y0 = y + (size_t)i * m, *y1 = y0 + m;
        int j0 = 0;
        for (; j0 + JB <= m; j0 += JB) {
            v4f a0 = load4(y0 + j0), a1 = load4(y0 + j0 + 4), a2 = load4(y0 + j0 + 8),
                a3 = load4(y0 + j0 + 12);
            v4f b0 = load4(y1 + j0), b1 = load4(y1 + j0 + 4), b2 = load4(y1 + j0 + 8),
                b3 = load4(y1 + j0 + 12);
            for (int p = 0; p < k; p++) {
                const float *wp = w + (size_t)p * m + j0;
                v4f w0 = load4(wp), w1 = load4(wp + 4), w2 = load4(wp + 8),
                    w3 = load4(wp + 12);
                v4f u0 = splat4(x0[p]), u1 = splat4(x1[p]);
                a0 += u0 * w0, a1 += u0 * w1, a2 += u0 * w2, a3 += u0 * w3;
                b0 += u1 * w0, b1 += u1 * w1, b2 += u1 * w2, b3 += u1 * w3;
            }
            store4(y0 + j0, a0), store4(y0 + j0 + 4, a1), store4(y0 + j0 + 8, a2),
                store4(y0 + j0 + 12, a3);
            store4(y1 + j0, b0), store4(y1 + j0 + 4, b1), store4(y1 + j0 + 8, b2),
                store4(y1 + j0 + 12, b3);
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

// dot4_sum S DY W J M: the dot product of rows dy and w whose first J terms
// (J a multiple of 4) are summed in the lanes of S; as four partial sums
// (lane l sums the terms j = l mod 4, in order of j; the last m % 4 terms go to
// lane 0), added up as (s0 + s1) + (s2 + s3).
static inline float dot4_sum(v4f s, const float *dy, const float *w, int j, int m) {
    float s0 = s[0];
    for (; j < m; j++) s0 += dy[j] * w[j];
    return (s0 + s[1]) + (s[2] + s[3]);
}

// Inverts: y = x w (for x). dx[i][p] += sum_j dy[i][j] w[p][j], with four
// partial sums so the loop is not one long dependency chain. Four rows p of w
// at once share each load of dy (and so are read once per row of dy, not
// four times); every output is summed exactly as dot4_sum says.
void tmat_mul_bt_acc(const float *dy, const float *w, float *dx, int n, int k, int m) {
    const int m4 = m / 4 * 4;
    for (int i = 0; i < n; i++) {
        const float *dyi = dy + (size_t)i * m;
        float *dxi = dx + (size_t)i * k;
        int p = 0;
        for (; p + 4 <= k; p += 4) {
            const float *w0 = w + (size_t)p * m, *w1 = w0 + m, *w2 = w1 + m,
                        *w3 = w2 + m;
            v4f a0 = splat4(0.0f), a1 = a0, a2 = a0, a3 = a0;
            for (int j = 0; j < m4; j += 4) {
                v4f d = load4(dyi + j);
                a0 += d * load4(w0 + j), a1 += d * load4(w1 + j);
                a2 += d * load4(w2 + j), a3 += d * load4(w3 + j);
            }
            dxi[p] += dot4_sum(a0, dyi, w0, m4, m);
            dxi[p + 1] += dot4_sum(a1, dyi, w1, m4, m);
            dxi[p + 2] += dot4_sum(a2, dyi, w2, m4, m);
            dxi[p + 3] += dot4_sum(a3, dyi, w3, m4, m);
        }
        for (; p < k; p++) {                  // the last k % 4 rows of w
            const float *wp = w + (size_t)p * m;
            v4f a = splat4(0.0f);
            for (int j = 0; j < m4; j += 4) a += load4(dyi + j) * load4(wp + j);
            dxi[p] += dot4_sum(a, dyi, wp, m4, m);
        }
    }
}

// Inverts: y = x w (for w). dw[p][j] += sum_i x[i][p] dy[i][j], summed in
// order of i, a block of JB columns of dw in registers.
void tmat_at_mul_acc(const float *x, const float *dy, float *dw, int n, int k, int m) {
    for (int p = 0; p < k; p++) {
        float *dwp = dw + (size_t)p * m;
        int j0 = 0;
        for (; j0 + JB <= m; j0 += JB) {
            v4f a0 = load4(dwp + j0), a1 = load4(dwp + j0 + 4),
                a2 = load4(dwp + j0 + 8), a3 = load4(dwp + j0 + 12);
            for (int i = 0; i < n; i++) {
                v4f xp = splat4(x[(size_t)i * k + p]);
                const float *dyi = dy + (size_t)i * m + j0;
                a0 += xp * load4(dyi), a1 += xp * load4(dyi + 4);
                a2 += xp * load4(dyi + 8), a3 += xp * load4(dyi + 12);
            }
            store4(dwp + j0, a0), store4(dwp + j0 + 4, a1), store4(dwp + j0 + 8, a2),
                store4(dwp + j0 + 12, a3);
        }
        for (int i = 0; i < n; i++)
            for (int j = j0; j < m; j++)
                dwp[j] += x[(size_t)i * k + p] * dy[(size_t)i * m + j];
    }
}

void tmat_set_rows(float *y, const float *b, int n, int m) {
    if (m < 1) return;
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
