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
// Two doubles as one value (GCC's and Clang's vector extension, as in
// base/tmat.c). A float times a float is exact in double, so a sum in double
// has one rounding, at the end: the backward sums below run over V or N terms
// (hundreds), where float sums would lose digits.
typedef double v2d __attribute__((vector_size(16)));
enum { CB = 16 };   // output columns kept in registers at once (8 of v2d)

// acc[0..CB) += a * u[0..CB), in double
static inline void axpy_block(v2d acc[CB / 2], double a, const float *u) {
    v2d av = {a, a};
    for (int k = 0; k < CB / 2; k++) acc[k] += av * (v2d){u[2 * k], u[2 * k + 1]};
}

// out[j] += sum over r < R of a[r * as] * u[r * us + j], for j < m (m <= CB),
// each sum in double in order of r, added to out in float at the end.
static void dsum_rows(float *out, const float *a, long as, const float *u, long us,
                      int R, int m) {
    v2d acc[CB / 2] = {{0.0, 0.0}};
    if (m == CB)
        for (int r = 0; r < R; r++) axpy_block(acc, a[r * as], u + r * us);
    else
        for (int r = 0; r < R; r++)
            for (int j = 0; j < m; j++)
                acc[j / 2][j % 2] += a[r * as] * (double)u[r * us + j];
    for (int j = 0; j < m; j++) out[j] += (float)acc[j / 2][j % 2];   // accumulates
}

void tied_logits_backward(float *dx, float *dwte, const float *dlogits, const float *x,
                          const float *wte, int N, int V, int C) {
    if (N <= 0 || V <= 0 || C <= 0) return;
    // in the forward pass this was: logits[n][i] = x[n] . wte[i]
    for (int c0 = 0; c0 < C; c0 += CB) {        // CB columns at a time
        int m = C - c0 < CB ? C - c0 : CB;
        for (int n = 0; n < N && dx; n++) {     // dx[n] += sum_i dlogits[n][i] wte[i]
            float *dx_n = dx + (long)n * C + c0;
            dsum_rows(dx_n, dlogits + (long)n * V, 1, wte + c0, C, V, m);
        }
        for (int i = 0; i < V; i++)             // dwte[i] += sum_n dlogits[n][i] x[n]
            dsum_rows(dwte + (long)i * C + c0, dlogits + i, V, x + c0, C, N, m);
    }
}
// end snippet
