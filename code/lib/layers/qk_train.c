// qk_train.c -- the forward pass and its hand-written backward (see qk_train.h).
#include "layers/qk_train.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "attention/attention.h"
#include "attention/softmax.h"
#include "base/linear.h"

// a[i][t_i], kept at least FLT_MIN: a target weight that underflowed to 0 gives a
// large finite loss instead of infinity (see qk_train.h).
static double target_weight(const float *a, int n, int i, int j) {
    double w = a[i * n + j];
    return w < FLT_MIN ? FLT_MIN : w;
}

static int scored_rows(const int *t, int n) {
    int rows = 0;
    for (int i = 0; i < n; i++) rows += t[i] >= 0;
    return rows;
}

// snippet: qk_forward
double qk_forward(const float *x, const float *w_q, const float *w_k, const int *t,
                  int n, int d, int k, float *q, float *kk, float *a) {
    int rows = n >= 1 && d >= 1 && k >= 1 ? scored_rows(t, n) : 0;
    if (rows == 0) return 0.0;
    linear_forward(x, w_q, NULL, q, n, d, k);     // q = x w_q
    linear_forward(x, w_k, NULL, kk, n, d, k);    // kk = x w_k
    attention_scores(q, kk, a, n, n, k);          // s = q kk^T / sqrt(k)
    softmax_rows(a, n, n);                        // a = softmax(s), row by row
    double loss = 0.0;
    for (int i = 0; i < n; i++)
        if (t[i] >= 0) loss -= log(target_weight(a, n, i, t[i]));
    return loss / rows;                           // mean over the scored rows
}
// end snippet

// snippet: qk_backward
void qk_backward(const float *x, const int *t, const qk_saved_t *fw, int n, int d,
                 int k, float *dw_q, float *dw_k, float *scratch) {
    const float *q = fw->q, *kk = fw->kk, *a = fw->a;
    int rows = n >= 1 && d >= 1 && k >= 1 ? scored_rows(t, n) : 0;
    if (rows == 0) return;
    float *ds = scratch;                          // (n, n): dloss/ds, first dloss/da
    float *dq = ds + (size_t)n * n;               // (n, k)
    float *dkk = dq + (size_t)n * k;              // (n, k)
    // forward: loss -= log(a[i][t_i]) / rows  =>  dloss/da[i][t_i] = -1 / (rows a)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            ds[i * n + j] = t[i] == j
                    ? (float)(-1.0 / (rows * target_weight(a, n, i, j)))
                    : 0.0f;
    // forward: a = softmax(s) row by row  =>  ds_i = a_i * (da_i - <a_i, da_i>)
    for (int i = 0; i < n; i++) softmax_backward(a + i * n, ds + i * n, ds + i * n, n);
    // forward: s = q kk^T / sqrt(k)  =>  dq = ds kk / sqrt(k), dkk = ds^T q / sqrt(k)
    const double scale = 1.0 / sqrt((double)k);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < k; c++) {
            double gq = 0.0, gk = 0.0;
            for (int j = 0; j < n; j++) {
                gq += (double)ds[i * n + j] * kk[j * k + c];
                gk += (double)ds[j * n + i] * q[j * k + c];
            }
            dq[i * k + c] = (float)(gq * scale);
            dkk[i * k + c] = (float)(gk * scale);
        }
    // forward: q = x w_q, kk = x w_k  =>  dw_q += x^T dq, dw_k += x^T dkk
    linear_backward(x, NULL, dq, NULL, dw_q, NULL, n, d, k);
    linear_backward(x, NULL, dkk, NULL, dw_k, NULL, n, d, k);
}
// end snippet
