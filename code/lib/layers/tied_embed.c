// tied_embed.c -- tied token embedding and output projection.
#include "layers/tied_embed.h"

#include <string.h>

#include "base/tmat.h"

int tied_embed_forward(float *x, const int *tokens, const float *wte, int N, int V,
                       int C) {
    for (int n = 0; n < N; n++) {
        if (tokens[n] < 0 || tokens[n] >= V) return -1;
        const float *row = wte + (long)tokens[n] * C;
        for (int c = 0; c < C; c++) x[(long)n * C + c] = row[c];
    }
    return 0;
}

void tied_embed_backward(float *dwte, const float *dx, const int *tokens, int N, int V,
                         int C) {
    for (int n = 0; n < N; n++) {
        if (tokens[n] < 0 || tokens[n] >= V) continue;
        // in the forward pass this was: x[n * C + c] = row[c];
        float *drow = dwte + (long)tokens[n] * C;
        for (int c = 0; c < C; c++) drow[c] += dx[(long)n * C + c];   // accumulates
    }
}

// snippet: tied_logits_forward
void tied_logits_forward(float *logits, const float *x, const float *wte, int N, int V,
                         int C) {
    if (N <= 0 || V <= 0) return;
    memset(logits, 0, (size_t)N * V * sizeof *logits);
    // logits[n][i] = x[n] . wte[i]: the product with wte transposed, which is
    // base/tmat's backward product dx += dy w^T (with dy = x, w = wte)
    if (C > 0) tmat_mul_bt_acc(x, wte, logits, N, V, C);
}
// end snippet

// snippet: tied_logits_backward
// Four doubles as one value (GCC's and Clang's vector extension, as in
// base/tmat.c). A float times a float is exact in double, so a sum in double
// has one rounding, at the end: the backward sums below run over V or N terms
// (hundreds), where float sums would lose digits.
typedef double v4d __attribute__((vector_size(32)));
typedef float v4f __attribute__((vector_size(16)));
enum { CB = 16 };   // output columns kept in registers at once (4 of v4d)
#define INLINE static inline __attribute__((always_inline))

// The sums of two outputs at once, sharing each load of u: out0[j] += sum over
// r < R of a0[r * as] * u[r * us + j], out1 the same with a1, for j < m
// (m <= CB); each sum in double in order of r, added to out in float at the
// end. out1 NULL: out0 only. Two blocks of sums are eight independent chains
// of additions, enough to hide an addition's latency.
INLINE void dsum_rows(float *out0, float *out1, const float *a0, const float *a1,
                      long as, const float *u, long us, int R, int m) {
    v4d acc0[CB / 4] = {{0.0, 0.0, 0.0, 0.0}}, acc1[CB / 4] = {{0.0, 0.0, 0.0, 0.0}};
    if (!out1) a1 = a0;                       // computed, never stored
    if (m == CB)
        for (int r = 0; r < R; r++) {
            v4d b0 = {a0[r * as], a0[r * as], a0[r * as], a0[r * as]};
            v4d b1 = {a1[r * as], a1[r * as], a1[r * as], a1[r * as]};
            for (int k = 0; k < CB / 4; k++) {
                v4f f;
                memcpy(&f, u + r * us + 4 * k, sizeof f);
                v4d ud = __builtin_convertvector(f, v4d);
                acc0[k] += b0 * ud, acc1[k] += b1 * ud;
            }
        }
    else
        for (int r = 0; r < R; r++)
            for (int j = 0; j < m; j++) {
                double uj = u[r * us + j];
                acc0[j / 4][j % 4] += a0[r * as] * uj;
                acc1[j / 4][j % 4] += a1[r * as] * uj;
            }
    for (int j = 0; j < m; j++) {             // accumulates
        out0[j] += (float)acc0[j / 4][j % 4];
        if (out1) out1[j] += (float)acc1[j / 4][j % 4];
    }
}

INLINE void logits_backward(float *dx, float *dwte, const float *dlogits,
                            const float *x, const float *wte, int N, int V, int C) {
    // in the forward pass this was: logits[n][i] = x[n] . wte[i]
    for (int c0 = 0; c0 < C; c0 += CB) {        // CB columns at a time
        int m = C - c0 < CB ? C - c0 : CB;
        for (int n = 0; n < N && dx; n += 2) {  // dx[n] += sum_i dlogits[n][i] wte[i]
            const float *d = dlogits + (long)n * V;
            float *o = dx + (long)n * C + c0;
            dsum_rows(o, n + 1 < N ? o + C : NULL, d, d + V, 1, wte + c0, C, V, m);
        }
        for (int i = 0; i < V; i += 2) {        // dwte[i] += sum_n dlogits[n][i] x[n]
            const float *d = dlogits + i;
            float *o = dwte + (long)i * C + c0;
            dsum_rows(o, i + 1 < V ? o + C : NULL, d, d + 1, V, x + c0, C, N, m);
        }
    }
}
// end snippet

// The body twice, as in base/tmat.c: for every x86-64 processor, and for those
// with AVX2 (a v4d in one register, not two); the same operations, so the
// same bits either way. TIED_PORTABLE (a test defines it) keeps only the first.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(TIED_PORTABLE)
__attribute__((target("avx2"))) static void logits_backward_avx2(
    float *dx, float *dwte, const float *dlogits, const float *x, const float *wte,
    int N, int V, int C) {
    logits_backward(dx, dwte, dlogits, x, wte, N, V, C);
}
static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#else
#define logits_backward_avx2 logits_backward
static int has_avx2(void) { return 0; }
#endif

void tied_logits_backward(float *dx, float *dwte, const float *dlogits, const float *x,
                          const float *wte, int N, int V, int C) {
    if (N <= 0 || V <= 0 || C <= 0) return;
    if (has_avx2()) logits_backward_avx2(dx, dwte, dlogits, x, wte, N, V, C);
    else logits_backward(dx, dwte, dlogits, x, wte, N, V, C);
}
