// tmat.c -- matrix products for training, in loop orders that vectorise.
#include "base/tmat.h"

#include <string.h>

#include "base/v4f.h"

// Four floats as one value (base/v4f.h): every output below is still summed one
// term at a time in a fixed order, exactly as the scalar loops would sum it;
// the vectors only make the compiler keep the accumulators in registers (as
// plain float arrays, GCC -O2 keeps them on the stack and stores them after
// every term).

// Eight floats as one value, for the two products in which every output is
// one sum taken a term at a time (tmat_mul_acc, tmat_at_mul_acc): a vector
// holds eight outputs, not eight terms of one sum, so its width changes no
// result. Their bodies are written once and compiled twice, for every x86-64
// processor and for those with AVX2 (whose registers hold eight floats, SSE's
// four); the processor picks at run time, and both give the same bytes
// (tests/unit/test_tmat.c checks that).
typedef float v8f __attribute__((vector_size(32)));
#define LOAD(v, p) memcpy(&(v), (p), sizeof(v))
#define STORE(p, v) memcpy((p), &(v), sizeof(v))
#define BODY static inline __attribute__((always_inline)) void

// Both products are one: y (r, m) += X w for w (t, m), where row i of X is
// x[i * rs + q * ts], q < t. Every output is summed in order of q, from its old
// value. The forward product reads x by rows (rs = k, ts = 1); the weight
// gradient reads it by columns (rs = 1, ts = k), as X = x^T.
// Four rows of y and a block of 16 outputs of each live in registers while q
// runs, so y is read and written once, not t times, and each row of w serves
// four rows of X.
BODY rows4(const float *x, size_t rs, size_t ts, const float *w, float *y, int t,
           int m) {
    const float *x0 = x, *x1 = x0 + rs, *x2 = x1 + rs, *x3 = x2 + rs;
    float *y0 = y, *y1 = y0 + m, *y2 = y1 + m, *y3 = y2 + m;
    int j0 = 0;
    for (; j0 + 16 <= m; j0 += 16) {
        v8f a0, a1, b0, b1, c0, c1, d0, d1;
        LOAD(a0, y0 + j0), LOAD(a1, y0 + j0 + 8);
        LOAD(b0, y1 + j0), LOAD(b1, y1 + j0 + 8);
        LOAD(c0, y2 + j0), LOAD(c1, y2 + j0 + 8);
        LOAD(d0, y3 + j0), LOAD(d1, y3 + j0 + 8);
        for (int q = 0; q < t; q++) {
            v8f w0, w1;
            LOAD(w0, w + (size_t)q * m + j0), LOAD(w1, w + (size_t)q * m + j0 + 8);
            float u0 = x0[q * ts], u1 = x1[q * ts], u2 = x2[q * ts], u3 = x3[q * ts];
            a0 += w0 * u0, a1 += w1 * u0, b0 += w0 * u1, b1 += w1 * u1;
            c0 += w0 * u2, c1 += w1 * u2, d0 += w0 * u3, d1 += w1 * u3;
        }
        STORE(y0 + j0, a0), STORE(y0 + j0 + 8, a1);
        STORE(y1 + j0, b0), STORE(y1 + j0 + 8, b1);
        STORE(y2 + j0, c0), STORE(y2 + j0 + 8, c1);
        STORE(y3 + j0, d0), STORE(y3 + j0 + 8, d1);
    }
    for (; j0 + 4 <= m; j0 += 4) {           // the rest, four columns at a time
        v4f a = load4(y0 + j0), b = load4(y1 + j0);
        v4f c = load4(y2 + j0), d = load4(y3 + j0);
        for (int q = 0; q < t; q++) {
            v4f wq = load4(w + (size_t)q * m + j0);
            a += wq * x0[q * ts], b += wq * x1[q * ts];
            c += wq * x2[q * ts], d += wq * x3[q * ts];
        }
        store4(y0 + j0, a), store4(y1 + j0, b), store4(y2 + j0, c), store4(y3 + j0, d);
    }
    for (int q = 0; q < t; q++)              // then one at a time
        for (int j = j0; j < m; j++) {
            float wq = w[(size_t)q * m + j];
            y0[j] += x0[q * ts] * wq, y1[j] += x1[q * ts] * wq;
            y2[j] += x2[q * ts] * wq, y3[j] += x3[q * ts] * wq;
        }
}

BODY product(const float *x, size_t rs, size_t ts, const float *w, float *y, int r,
             int t, int m) {
    int i = 0;
    for (; i + 4 <= r; i += 4) rows4(x + i * rs, rs, ts, w, y + (size_t)i * m, t, m);
    for (; i < r; i++)                        // the last r % 4 rows, one at a time
        for (int q = 0; q < t; q++)
            for (int j = 0; j < m; j++)
                y[(size_t)i * m + j] += x[i * rs + q * ts] * w[(size_t)q * m + j];
}

// The forward product, y[i][j] += sum_p x[i][p] w[p][j], summed in order of p.
BODY mul_acc(const float *x, const float *w, float *y, int n, int k, int m) {
    product(x, (size_t)k, 1, w, y, n, k, m);
}

// Inverts: y = x w (for w). dw[p][j] += sum_i x[i][p] dy[i][j], summed in
// order of i.
BODY at_mul_acc(const float *x, const float *dy, float *dw, int n, int k, int m) {
    product(x, 1, (size_t)k, dy, dw, k, n, m);
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
// partial sums so the loop is not one long dependency chain; every output is
// summed exactly as dot4_sum says, by one of two loops that give the same bits.
//
// One row of w at a time (rows p0 .. k): four rows p of w at once share each
// load of dy (and so are read once per row of dy, not four times).
static void bt_rows(const float *dy, const float *w, float *dx, int n, int k, int m,
                    int p0) {
    const int m4 = m / 4 * 4;
    for (int i = 0; i < n; i++) {
        const float *dyi = dy + (size_t)i * m;
        float *dxi = dx + (size_t)i * k;
        int p = p0;
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

// A panel of PB rows p of w at once, transposed (wt[j * PB + q] = w[p + q][j]):
// lane q of a vector is output p + q, and the four partial sums of dot4_sum
// are four vectors (phase j mod 4), each taken one term at a time in order of
// j, the m % 4 last terms in phase 0, added up as (s0 + s1) + (s2 + s3). The
// same operations on the same values as bt_rows, so the same bits; every
// load of the panel serves PB outputs, not four.
enum { PB = 16, PB_MAX_M = 512 };   // panel rows; widest m the panel buffer takes
BODY bt_panel(const float *dy, const float *wt, float *dx, int n, int k, int m) {
    const int m4 = m / 4 * 4;
    for (int i = 0; i < n; i++) {
        const float *dyi = dy + (size_t)i * m;
        v8f z = {0}, a0 = z, a1 = z, b0 = z, b1 = z, c0 = z, c1 = z, d0 = z, d1 = z;
        for (int j = 0; j < m4; j += 4) {
            const float *r = wt + (size_t)j * PB;
            v8f u0, u1;
            LOAD(u0, r), LOAD(u1, r + 8);
            a0 += u0 * dyi[j], a1 += u1 * dyi[j];
            LOAD(u0, r + PB), LOAD(u1, r + PB + 8);
            b0 += u0 * dyi[j + 1], b1 += u1 * dyi[j + 1];
            LOAD(u0, r + 2 * PB), LOAD(u1, r + 2 * PB + 8);
            c0 += u0 * dyi[j + 2], c1 += u1 * dyi[j + 2];
            LOAD(u0, r + 3 * PB), LOAD(u1, r + 3 * PB + 8);
            d0 += u0 * dyi[j + 3], d1 += u1 * dyi[j + 3];
        }
        for (int j = m4; j < m; j++) {        // the last m % 4 terms, in phase 0
            v8f u0, u1;
            LOAD(u0, wt + (size_t)j * PB), LOAD(u1, wt + (size_t)j * PB + 8);
            a0 += u0 * dyi[j], a1 += u1 * dyi[j];
        }
        float *o = dx + (size_t)i * k;
        v8f s0, s1;
        LOAD(s0, o), LOAD(s1, o + 8);
        s0 += (a0 + b0) + (c0 + d0), s1 += (a1 + b1) + (c1 + d1);
        STORE(o, s0), STORE(o + 8, s1);
    }
}

// Each body twice, and the choice. TMAT_PORTABLE (a test defines it) keeps only
// the portable copy.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(TMAT_PORTABLE)
#define AVX2 __attribute__((target("avx2")))
AVX2 static void mul_acc_avx2(const float *x, const float *w, float *y, int n, int k,
                              int m) {
    mul_acc(x, w, y, n, k, m);
}
AVX2 static void at_mul_acc_avx2(const float *x, const float *dy, float *dw, int n,
                                 int k, int m) {
    at_mul_acc(x, dy, dw, n, k, m);
}
AVX2 static void bt_panel_avx2(const float *dy, const float *wt, float *dx, int n,
                               int k, int m) {
    bt_panel(dy, wt, dx, n, k, m);
}
static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
#define mul_acc_avx2 mul_acc
#define at_mul_acc_avx2 at_mul_acc
#define bt_panel_avx2 bt_panel
static int has_avx2(void) { return 0; }
#endif

void tmat_mul_acc(const float *x, const float *w, float *y, int n, int k, int m) {
    if (has_avx2()) mul_acc_avx2(x, w, y, n, k, m);
    else mul_acc(x, w, y, n, k, m);
}

void tmat_at_mul_acc(const float *x, const float *dy, float *dw, int n, int k, int m) {
    if (has_avx2()) at_mul_acc_avx2(x, dy, dw, n, k, m);
    else at_mul_acc(x, dy, dw, n, k, m);
}

// Panels where a transposed panel serves at least four rows of dy, then rows.
void tmat_mul_bt_acc(const float *dy, const float *w, float *dx, int n, int k, int m) {
    int p = 0;
    if (n >= 4 && m > 0 && m <= PB_MAX_M) {
        float wt[PB * PB_MAX_M];
        int avx2 = has_avx2();
        for (; p + PB <= k; p += PB) {
            for (int q = 0; q < PB; q++)          // the panel, transposed
                for (int j = 0; j < m; j++)
                    wt[(size_t)j * PB + q] = w[(size_t)(p + q) * m + j];
            if (avx2) bt_panel_avx2(dy, wt, dx + p, n, k, m);
            else bt_panel(dy, wt, dx + p, n, k, m);
        }
    }
    bt_rows(dy, w, dx, n, k, m, p);
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
