// swiglu.c -- SwiGLU feed-forward forward and backward.
#include "layers/swiglu.h"

#include <math.h>
#include <string.h>

long swiglu_param_count(const swiglu_params_t *p) { return 3L * p->C * p->F; }

static float sigmoid(float a) { return 1.0f / (1.0f + expf(-a)); }

// snippet: swiglu_forward
void swiglu_forward(const swiglu_params_t *p, float *out, float *act, const float *x,
                    int N) {
    int C = p->C, F = p->F;
    for (int n = 0; n < N; n++) {
        const float *x_n = x + (long)n * C;
        float *a = act + (long)n * 3 * F, *b = a + F, *h = b + F;
        float *out_n = out + (long)n * C;
        memset(a, 0, 2 * (size_t)F * sizeof(float));
        for (int c = 0; c < C; c++)
            for (int f = 0; f < F; f++) {
                a[f] += x_n[c] * p->w1[(long)c * F + f];    // gate
                b[f] += x_n[c] * p->w3[(long)c * F + f];    // up
            }
        for (int f = 0; f < F; f++) h[f] = a[f] * sigmoid(a[f]) * b[f];
        memset(out_n, 0, (size_t)C * sizeof(float));
        for (int f = 0; f < F; f++)
            for (int c = 0; c < C; c++)
                out_n[c] += h[f] * p->w2[(long)f * C + c];   // down
    }
}
// end snippet

// snippet: swiglu_backward
void swiglu_backward(const swiglu_params_t *p, swiglu_params_t *g, float *dx,
                     const float *dout, const float *x, const float *act, int N) {
    int C = p->C, F = p->F;
    for (int n = 0; n < N; n++) {
        const float *x_n = x + (long)n * C, *dout_n = dout + (long)n * C;
        const float *a = act + (long)n * 3 * F, *b = a + F, *h = b + F;
        for (int f = 0; f < F; f++) {
            // in the forward pass this was: out_n[c] += h[f] * p->w2[f * C + c];
            const float *w2_f = p->w2 + (long)f * C;
            float *gw2_f = g->w2 + (long)f * C;
            double dh = 0.0;
            for (int c = 0; c < C; c++) {
                dh += (double)dout_n[c] * w2_f[c];
                gw2_f[c] += h[f] * dout_n[c];                   // accumulates
            }
            // in the forward pass this was: h[f] = a[f] * sigmoid(a[f]) * b[f];
            float s = sigmoid(a[f]);
            float da = (float)(dh * b[f] * s * (1.0f + a[f] * (1.0f - s)));
            float db = (float)(dh * a[f] * s);
            // in the forward pass this was: a[f] += x_n[c] * p->w1[c * F + f];
            //                               b[f] += x_n[c] * p->w3[c * F + f];
            for (int c = 0; c < C; c++) {
                g->w1[(long)c * F + f] += x_n[c] * da;          // accumulates
                g->w3[(long)c * F + f] += x_n[c] * db;          // accumulates
                if (dx)
                    dx[(long)n * C + c] +=
                        p->w1[(long)c * F + f] * da + p->w3[(long)c * F + f] * db;
            }
        }
    }
}
// end snippet
