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

void tied_logits_forward(float *logits, const float *x, const float *wte, int N, int V,
                         int C) {
    for (int n = 0; n < N; n++)
        for (int i = 0; i < V; i++) {
            float dot = 0.0f;
            for (int c = 0; c < C; c++)
                dot += x[(long)n * C + c] * wte[(long)i * C + c];
            logits[(long)n * V + i] = dot;
        }
}

void tied_logits_backward(float *dx, float *dwte, const float *dlogits, const float *x,
                          const float *wte, int N, int V, int C) {
    for (int n = 0; n < N; n++)
        for (int i = 0; i < V; i++) {
            // in the forward pass this was: dot += x[n * C + c] * wte[i * C + c];
            float d = dlogits[(long)n * V + i];
            for (int c = 0; c < C; c++) {
                if (dx) dx[(long)n * C + c] += d * wte[(long)i * C + c];  // accumulates
                dwte[(long)i * C + c] += d * x[(long)n * C + c];         // accumulates
            }
        }
}
