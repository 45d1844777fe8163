// swiglu.c -- SwiGLU feed-forward forward and backward.
#include "layers/swiglu.h"

#include <math.h>
#include <string.h>

#include "base/tmat.h"

long swiglu_param_count(const swiglu_params_t *p) { return 3L * p->C * p->F; }

// s (m,) += a x (m,), in double; m = SWIGLU_SB is the common case, written
// with a constant trip count so the compiler vectorises it.
enum { SWIGLU_SB = 64 };
static void axpy_d(double *s, double a, const float *x, int m) {
    if (m == SWIGLU_SB)
        for (int j = 0; j < SWIGLU_SB; j++) s[j] += a * x[j];
    else
        for (int j = 0; j < m; j++) s[j] += a * x[j];
}

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
// dL/da and dL/db (N, F) from dout (N, C), through h W_2 and h = SiLU(a) b.
static void gate_backward(const swiglu_params_t *p, float *da, float *db,
                          const float *dout, const float *a, const float *b, int N) {
    int C = p->C, F = p->F;
    for (long n = 0; n < N; n++) {
        const float *dout_n = dout + n * C;
        for (long f = 0; f < F; f += 4) {
            // in the forward pass this was: out = h W_2. Four sums at once,
            // each in order of c (independent chains keep the unit busy).
            int q = F - f < 4 ? (int)(F - f) : 4;
            double dh[4];
            tmat_dots4(dout_n, p->w2 + f * C, C, q, dh);
            // in the forward pass this was: h = a * sigmoid(a) * b
            for (int j = 0; j < q; j++) {
                long i = n * F + f + j;
                float s = sigmoid(a[i]);
                da[i] = (float)(dh[j] * b[i] * s * (1.0f + a[i] * (1.0f - s)));
                db[i] = (float)(dh[j] * a[i] * s);
            }
        }
    }
}

// dx (N, C) += da W_1^T + db W_3^T.
static void input_backward(const swiglu_params_t *p, float *dx, const float *da,
                           const float *db, int N) {
    int C = p->C, F = p->F;
    for (long n = 0; n < N; n++)          // dx = da W_1^T + db W_3^T
        for (int c = 0; c < C; c += 4) {
            int q = C - c < 4 ? C - c : 4;      // four sums at once, each in order
            double sx[4] = {0.0, 0.0, 0.0, 0.0};
            const float *w1 = p->w1 + (long)c * F, *w3 = p->w3 + (long)c * F;
            const float *da_n = da + n * F, *db_n = db + n * F;
            if (q == 4) {
                double s0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0;
                for (int f = 0; f < F; f++) {
                    double u = da_n[f], v = db_n[f];
                    s0 += (double)w1[f] * u + (double)w3[f] * v;
                    t1 += (double)w1[F + f] * u + (double)w3[F + f] * v;
                    t2 += (double)w1[2L * F + f] * u + (double)w3[2L * F + f] * v;
                    t3 += (double)w1[3L * F + f] * u + (double)w3[3L * F + f] * v;
                }
                sx[0] = s0, sx[1] = t1, sx[2] = t2, sx[3] = t3;
            } else {
                for (int f = 0; f < F; f++)
                    for (int j = 0; j < q; j++)
                        sx[j] += (double)w1[(long)j * F + f] * da_n[f] +
                                 (double)w3[(long)j * F + f] * db_n[f];
            }
            for (int j = 0; j < q; j++) dx[n * C + c + j] += (float)sx[j];
        }
}

void swiglu_backward(const swiglu_params_t *p, swiglu_params_t *g, float *dx,
                     const float *dout, const float *x, const float *act, int N,
                     float *scratch) {
    int C = p->C, F = p->F;
    if (N <= 0 || C < 0 || F < 0) return;
    const float *a = act, *b = act + (long)N * F, *h = b + (long)N * F;
    float *da = scratch, *db = scratch + (long)N * F;     // (N, F) each
    gate_backward(p, da, db, dout, a, b, N);
    // The weight gradients sum over the rows n, in order, in double; a block
    // of SB sums is kept at once so that the innermost loop runs along a row.
    enum { SB = SWIGLU_SB };
    double s1[SB], s3[SB];
    for (int f = 0; f < F; f++)                 // dW_2 = h^T dout
        for (int c0 = 0; c0 < C; c0 += SB) {
            int m = C - c0 < SB ? C - c0 : SB;
            for (int j = 0; j < m; j++) s1[j] = 0.0;
            for (long n = 0; n < N; n++) axpy_d(s1, h[n * F + f], dout + n * C + c0, m);
            for (int j = 0; j < m; j++)
                g->w2[(long)f * C + c0 + j] += (float)s1[j];     // accumulates
        }
    // in the forward pass this was: a = x W_1, b = x W_3
    for (int c = 0; c < C; c++)                 // dW_1 = x^T da, dW_3 = x^T db
        for (int f0 = 0; f0 < F; f0 += SB) {
            int m = F - f0 < SB ? F - f0 : SB;
            for (int j = 0; j < m; j++) s1[j] = s3[j] = 0.0;
            for (long n = 0; n < N; n++) {
                axpy_d(s1, x[n * C + c], da + n * F + f0, m);
                axpy_d(s3, x[n * C + c], db + n * F + f0, m);
            }
            for (int j = 0; j < m; j++) {
                g->w1[(long)c * F + f0 + j] += (float)s1[j];     // accumulates
                g->w3[(long)c * F + f0 + j] += (float)s3[j];     // accumulates
            }
        }
    if (dx) input_backward(p, dx, da, db, N);
}
// end snippet
