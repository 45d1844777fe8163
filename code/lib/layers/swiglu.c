// swiglu.c -- SwiGLU feed-forward forward and backward.
#include "layers/swiglu.h"

#include <math.h>
#include <string.h>

#include "base/tmat.h"

long swiglu_param_count(const swiglu_params_t *p) { return 3L * p->C * p->F; }

// a -> 1 / (1 + exp(-a)), the gate's squashing function.
static float sigmoid(float a) { return 1.0f / (1.0f + expf(-a)); }

// snippet: swiglu_forward
void swiglu_forward(const swiglu_params_t *p, float *out, float *act, const float *x,
                    int N) {
    int C = p->C, F = p->F;
    if (N <= 0 || C < 0 || F < 0) return;
    float *a = act, *b = act + (long)N * F, *h = b + (long)N * F;   // (N, F) each
    memset(act, 0, 2 * (size_t)N * F * sizeof(float));
    tmat_mul_acc(x, p->w1, a, N, C, F);                          // gate a = x W_1
    tmat_mul_acc(x, p->w3, b, N, C, F);                          // up   b = x W_3
    for (long i = 0; i < (long)N * F; i++) h[i] = a[i] * sigmoid(a[i]) * b[i];
    memset(out, 0, (size_t)N * C * sizeof(float));
    tmat_mul_acc(h, p->w2, out, N, F, C);                        // down h W_2
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
    if (N <= 0 || C <= 0 || F <= 0) return;
    const float *a = act, *b = act + (long)N * F, *h = b + (long)N * F;
    float *da = scratch, *db = scratch + (long)N * F;     // (N, F) each
    // in the forward pass this was: out = h W_2
    tmat_at_mul_acc(h, dout, g->w2, N, F, C);             // dW_2 += h^T dout
    memset(da, 0, (size_t)N * F * sizeof *da);
    tmat_mul_bt_acc(dout, p->w2, da, N, F, C);            // dh = dout W_2^T, in da
    // in the forward pass this was: h = a * sigmoid(a) * b
    for (long i = 0; i < (long)N * F; i++) {
        float dh = da[i], s = sigmoid(a[i]);
        da[i] = dh * b[i] * s * (1.0f + a[i] * (1.0f - s));
        db[i] = dh * a[i] * s;
    }
    // in the forward pass this was: a = x W_1, b = x W_3
    tmat_at_mul_acc(x, da, g->w1, N, C, F);               // dW_1 += x^T da
    tmat_at_mul_acc(x, db, g->w3, N, C, F);               // dW_3 += x^T db
    if (dx) {
        tmat_mul_bt_acc(da, p->w1, dx, N, C, F);          // dx += da W_1^T
        tmat_mul_bt_acc(db, p->w3, dx, N, C, F);          //     + db W_3^T
    }
}
// end snippet
