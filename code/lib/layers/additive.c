// additive.c -- Bahdanau attention: scores, masked softmax, context; backward.
//
// B = batch (b), T = source length (t_len), S = query width (sd),
// K = annotation width (k), A = attention width (a).
#include "layers/additive.h"

#include <math.h>
#include <string.h>

#include "base/fmath.h"
#include "base/tmat.h"

void addattn_keys_forward(const float *ann, const float *u_a, float *keys, int t_len,
                          int b, int k, int a) {
    if (t_len < 1 || b < 1 || k < 1 || a < 1) return;
    memset(keys, 0, (size_t)t_len * b * a * sizeof *keys);
    tmat_mul_acc(ann, u_a, keys, t_len * b, k, a);
}

// Inverts: keys = ann U_a.
void addattn_keys_backward(const float *ann, const float *u_a, const float *dkeys,
                           float *dann, float *du_a, int t_len, int b, int k, int a) {
    if (t_len < 1 || b < 1 || k < 1 || a < 1) return;
    tmat_mul_bt_acc(dkeys, u_a, dann, t_len * b, k, a);
    tmat_at_mul_acc(ann, dkeys, du_a, t_len * b, k, a);
}

// snippet: addattn_forward
void addattn_forward(const addattn_dims_t *d, const float *s, const float *w_a,
                     const float *v, const float *keys, const float *ann,
                     const unsigned char *mask, const addattn_out_t *o, float *wq) {
    const int t_len = d->t_len, b = d->b, sd = d->sd, k = d->k, a = d->a;
    float *alpha = o->alpha, *c = o->c, *th = o->th;
    if (t_len < 1 || b < 1 || sd < 1 || k < 1 || a < 1) return;
    memset(wq, 0, (size_t)b * a * sizeof *wq);
    tmat_mul_acc(s, w_a, wq, b, sd, a);                       // wq = s W_a
    for (int i = 0; i < b; i++) {
        float *al = alpha + (size_t)i * t_len, mx = -INFINITY;
        for (int t = 0; t < t_len; t++) {
            const float *kt = keys + ((size_t)t * b + i) * a;
            float *tt = th + ((size_t)t * b + i) * a, e = 0.0f;
            for (int j = 0; j < a; j++) tt[j] = wq[(size_t)i * a + j] + kt[j];
            tanh_fast_n(tt, (size_t)a);                       // tanh(s W_a + h U_a)
            for (int j = 0; j < a; j++) e += v[j] * tt[j];    // e = v . tanh(...)
            al[t] = e;
            if ((!mask || mask[(size_t)i * t_len + t]) && e > mx) mx = e;
        }
        double sum = 0.0;                                     // masked softmax
        for (int t = 0; t < t_len; t++) {
            int vis = !mask || mask[(size_t)i * t_len + t];
            al[t] = vis ? expf(al[t] - mx) : 0.0f;
            sum += al[t];
        }
        for (int t = 0; t < t_len; t++) al[t] = sum > 0 ? (float)(al[t] / sum) : 0.0f;
        float *ci = c + (size_t)i * k;                        // c = sum_t alpha_t h_t
        memset(ci, 0, (size_t)k * sizeof *ci);
        for (int t = 0; t < t_len; t++) {
            const float *h = ann + ((size_t)t * b + i) * k;
            for (int j = 0; j < k; j++) ci[j] += al[t] * h[j];
        }
    }
}
// end snippet

// snippet: addattn_backward
void addattn_backward(const addattn_dims_t *d, const float *s, const float *w_a,
                      const float *v, const float *ann, const addattn_out_t *fw,
                      const float *dc, addattn_grads_t *g, float *work) {
    const int t_len = d->t_len, b = d->b, sd = d->sd, k = d->k, a = d->a;
    const float *alpha = fw->alpha, *th = fw->th;
    float *ds = g->ds, *dw_a = g->dw_a, *dv = g->dv, *dkeys = g->dkeys, *dann = g->dann;
    if (t_len < 1 || b < 1 || sd < 1 || k < 1 || a < 1) return;
    float *de = work, *dwq = work + (size_t)b * t_len;
    memset(dwq, 0, (size_t)b * a * sizeof *dwq);
    for (int i = 0; i < b; i++) {
        const float *al = alpha + (size_t)i * t_len, *dci = dc + (size_t)i * k;
        float *dei = de + (size_t)i * t_len;
        double dot = 0.0;
        for (int t = 0; t < t_len; t++) {
            // Inverts: c = sum_t alpha_t h_t
            const float *h = ann + ((size_t)t * b + i) * k;
            float *dh = dann + ((size_t)t * b + i) * k, dal = 0.0f;
            for (int j = 0; j < k; j++) {
                dal += dci[j] * h[j];
                dh[j] += al[t] * dci[j];
            }
            dei[t] = dal;
            dot += (double)al[t] * dal;
        }
        // Inverts: alpha = softmax(e): de_t = alpha_t (dalpha_t - sum alpha dalpha)
        for (int t = 0; t < t_len; t++) dei[t] = al[t] * (dei[t] - (float)dot);
        for (int t = 0; t < t_len; t++) {
            if (dei[t] == 0.0f) continue;                     // hidden positions
            // Inverts: e = v . tanh(wq + k_t)
            const float *tt = th + ((size_t)t * b + i) * a;
            float *dk = dkeys + ((size_t)t * b + i) * a;
            for (int j = 0; j < a; j++) {
                dv[j] += dei[t] * tt[j];
                float dpre = dei[t] * v[j] * (1.0f - tt[j] * tt[j]);
                dk[j] += dpre;
                dwq[(size_t)i * a + j] += dpre;
            }
        }
    }
    // Inverts: wq = s W_a
    tmat_mul_bt_acc(dwq, w_a, ds, b, sd, a);
    tmat_at_mul_acc(s, dwq, dw_a, b, sd, a);
}
// end snippet
