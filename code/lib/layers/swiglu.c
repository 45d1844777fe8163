// swiglu.c -- SwiGLU feed-forward forward and backward.
#include "layers/swiglu.h"

#include <math.h>
#include <string.h>

long swiglu_param_count(const swiglu_params_t *p) { return 3L * p->C * p->F; }

// a -> 1 / (1 + exp(-a)), the gate's squashing function.
static float sigmoid(float a) { return 1.0f / (1.0f + expf(-a)); }

// snippet: swiglu_forward
void swiglu_forward(const swiglu_params_t *p, float *out, float *act, const float *x,
                    int N) {
    int C = p->C, F = p->F;
    if (C < 0 || F < 0) return;
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

long swiglu_scratch_floats(const swiglu_params_t *p, int N) {
    return N > 0 && p->F > 0 ? 2L * N * p->F : 0;
}

// snippet: swiglu_backward
void swiglu_backward(const swiglu_params_t *p, swiglu_params_t *g, float *dx,
                     const float *dout, const float *x, const float *act, int N,
                     float *scratch) {
    int C = p->C, F = p->F;
    if (N <= 0 || C < 0 || F < 0) return;
    float *da = scratch, *db = scratch + (long)N * F;     // (N, F) each
    for (int n = 0; n < N; n++) {
        const float *dout_n = dout + (long)n * C;
        const float *a = act + (long)n * 3 * F, *b = a + F;
        for (int f = 0; f < F; f++) {
            // in the forward pass this was: out_n[c] += h[f] * p->w2[f * C + c];
            double dh = 0.0;
            for (int c = 0; c < C; c++)
                dh += (double)dout_n[c] * p->w2[(long)f * C + c];
            // in the forward pass this was: h[f] = a[f] * sigmoid(a[f]) * b[f];
            float s = sigmoid(a[f]);
            da[(long)n * F + f] = (float)(dh * b[f] * s * (1.0f + a[f] * (1.0f - s)));
            db[(long)n * F + f] = (float)(dh * a[f] * s);
        }
    }
    for (int f = 0; f < F; f++)                 // dW_2 = h^T dout
        for (int c = 0; c < C; c++) {
            double s = 0.0;
            for (int n = 0; n < N; n++)
                s += (double)act[(long)n * 3 * F + 2 * F + f] * dout[(long)n * C + c];
            g->w2[(long)f * C + c] += (float)s;             // accumulates
        }
    // in the forward pass this was: a[f] += x_n[c] * p->w1[c * F + f];
    //                               b[f] += x_n[c] * p->w3[c * F + f];
    for (int c = 0; c < C; c++)                 // dW_1 = x^T da, dW_3 = x^T db
        for (int f = 0; f < F; f++) {
            double s1 = 0.0, s3 = 0.0;
            for (int n = 0; n < N; n++) {
                s1 += (double)x[(long)n * C + c] * da[(long)n * F + f];
                s3 += (double)x[(long)n * C + c] * db[(long)n * F + f];
            }
            g->w1[(long)c * F + f] += (float)s1;            // accumulates
            g->w3[(long)c * F + f] += (float)s3;            // accumulates
        }
    for (int n = 0; n < N && dx; n++)           // dx = da W_1^T + db W_3^T
        for (int c = 0; c < C; c++) {
            double s = 0.0;
            for (int f = 0; f < F; f++)
                s += (double)p->w1[(long)c * F + f] * da[(long)n * F + f] +
                     (double)p->w3[(long)c * F + f] * db[(long)n * F + f];
            dx[(long)n * C + c] += (float)s;                // accumulates
        }
}
// end snippet
