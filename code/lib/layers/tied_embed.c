// tied_embed.c -- tied token embedding and output projection.
#include "layers/tied_embed.h"

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

// s (m,) += a x (m,), in double; m = TIED_SB is the common case, written with
// a constant trip count so the compiler vectorises it.
enum { TIED_SB = 64 };
static void axpy_d(double *s, double a, const float *x, int m) {
    if (m == TIED_SB)
        for (int j = 0; j < TIED_SB; j++) s[j] += a * x[j];
    else
        for (int j = 0; j < m; j++) s[j] += a * x[j];
}

// snippet: tied_logits_forward
void tied_logits_forward(float *logits, const float *x, const float *wte, int N, int V,
                         int C) {
    for (int n = 0; n < N; n++)
        for (int i = 0; i < V; i += 4) {        // four logits at once, each in order
            int q = V - i < 4 ? V - i : 4;
            double dot[4];
            tmat_dots4(x + (long)n * C, wte + (long)i * C, C, q, dot);
            for (int j = 0; j < q; j++) logits[(long)n * V + i + j] = (float)dot[j];
        }
}
// end snippet

// snippet: tied_logits_backward
void tied_logits_backward(float *dx, float *dwte, const float *dlogits, const float *x,
                          const float *wte, int N, int V, int C) {
    // in the forward pass this was: dot += x[n * C + c] * wte[i * C + c];
    // Every sum runs in double, in order of its index; a block of SB sums is
    // kept at once so that the innermost loop runs along a row.
    enum { SB = TIED_SB };
    double s[SB];
    for (int c0 = 0; c0 < C; c0 += SB) {
        int m = C - c0 < SB ? C - c0 : SB;
        for (int n = 0; n < N && dx; n++) {     // dx = dlogits wte
            for (int j = 0; j < m; j++) s[j] = 0.0;
            for (int i = 0; i < V; i++)
                axpy_d(s, dlogits[(long)n * V + i], wte + (long)i * C + c0, m);
            for (int j = 0; j < m; j++) dx[(long)n * C + c0 + j] += (float)s[j];
        }
        for (int i = 0; i < V; i++) {           // dwte = dlogits^T x
            for (int j = 0; j < m; j++) s[j] = 0.0;
            for (int n = 0; n < N; n++)
                axpy_d(s, dlogits[(long)n * V + i], x + (long)n * C + c0, m);
            for (int j = 0; j < m; j++)
                dwte[(long)i * C + c0 + j] += (float)s[j];   // accumulates
        }
    }
}
// end snippet
