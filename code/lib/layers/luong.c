// luong.c -- Luong's general attention score: forward and backward, one step.
#include "layers/luong.h"

#include <math.h>

void luong_general_scores(const luong_dims_t *d, const float *s, const float *w,
                          const float *ann, float *scores) {
    int t_len = d->t_len, sd = d->sd, k = d->k;
    if (t_len < 1 || sd < 1 || k < 1) return;
    for (int t = 0; t < t_len; t++) {
        const float *h = ann + (long)t * k;
        double e = 0.0;
        // BEGIN SOLUTION
        for (int a = 0; a < sd; a++) {
            double wh = 0.0;                     // (W h_t)_a
            for (int b = 0; b < k; b++) wh += (double)w[(long)a * k + b] * h[b];
            e += s[a] * wh;
        }
        // END SOLUTION
        scores[t] = (float)e;
    }
}

void luong_general_attend(const luong_dims_t *d, const float *s, const float *w,
                          const float *ann, const unsigned char *mask, float *alpha,
                          float *c) {
    int t_len = d->t_len, k = d->k;
    if (t_len < 1 || d->sd < 1 || k < 1) return;
    luong_general_scores(d, s, w, ann, alpha);   // alpha holds the scores e
    // BEGIN SOLUTION
    float max = -INFINITY;
    for (int t = 0; t < t_len; t++)
        if ((!mask || mask[t]) && alpha[t] > max) max = alpha[t];
    double sum = 0.0;
    for (int t = 0; t < t_len; t++) {
        alpha[t] = (!mask || mask[t]) ? expf(alpha[t] - max) : 0.0f;
        sum += alpha[t];
    }
    for (int t = 0; t < t_len; t++)
        alpha[t] = sum > 0.0 ? (float)(alpha[t] / sum) : 0.0f;
    for (int b = 0; b < k; b++) {
        double acc = 0.0;
        for (int t = 0; t < t_len; t++) acc += (double)alpha[t] * ann[(long)t * k + b];
        c[b] = (float)acc;
    }
    // END SOLUTION
}

void luong_general_backward(const luong_dims_t *d, const float *s, const float *w,
                            const float *ann, const float *alpha, const float *dc,
                            float *ds, float *dw, float *dann) {
    int t_len = d->t_len, sd = d->sd, k = d->k;
    if (t_len < 1 || sd < 1 || k < 1) return;
    // BEGIN SOLUTION
    double dot = 0.0;                            // sum_u alpha_u dalpha_u
    for (int t = 0; t < t_len; t++) {
        double da = 0.0;
        for (int b = 0; b < k; b++) da += (double)dc[b] * ann[(long)t * k + b];
        dot += alpha[t] * da;
    }
    for (int t = 0; t < t_len; t++) {
        const float *h = ann + (long)t * k;
        float *dh = dann + (long)t * k;
        double da = 0.0;
        for (int b = 0; b < k; b++) da += (double)dc[b] * h[b];
        double de = alpha[t] * (da - dot);
        for (int b = 0; b < k; b++) dh[b] += alpha[t] * dc[b];
        for (int a = 0; a < sd; a++) {
            double wh = 0.0;
            for (int b = 0; b < k; b++) {
                wh += (double)w[(long)a * k + b] * h[b];
                dw[(long)a * k + b] += (float)(de * s[a] * h[b]);
                dh[b] += (float)(de * w[(long)a * k + b] * s[a]);
            }
            ds[a] += (float)(de * wh);
        }
    }
    // END SOLUTION
}
