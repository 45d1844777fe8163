// tied_embed.c -- tied token embedding and output projection.
#include "layers/tied_embed.h"

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
    for (int n = 0; n < N; n++)
        for (int i = 0; i < V; i++) {
            double dot = 0.0;
            for (int c = 0; c < C; c++)
                dot += (double)x[(long)n * C + c] * wte[(long)i * C + c];
            logits[(long)n * V + i] = (float)dot;
        }
}
// end snippet

// snippet: tied_logits_backward
void tied_logits_backward(float *dx, float *dwte, const float *dlogits, const float *x,
                          const float *wte, int N, int V, int C) {
    // in the forward pass this was: dot += x[n * C + c] * wte[i * C + c];
    for (int n = 0; n < N && dx; n++)           // dx = dlogits wte
        for (int c = 0; c < C; c++) {
            double s = 0.0;
            for (int i = 0; i < V; i++)
                s += (double)dlogits[(long)n * V + i] * wte[(long)i * C + c];
            dx[(long)n * C + c] += (float)s;    // accumulates
        }
    for (int i = 0; i < V; i++)                 // dwte = dlogits^T x
        for (int c = 0; c < C; c++) {
            double s = 0.0;
            for (int n = 0; n < N; n++)
                s += (double)dlogits[(long)n * V + i] * x[(long)n * C + c];
            dwte[(long)i * C + c] += (float)s;  // accumulates
        }
}
// end snippet
