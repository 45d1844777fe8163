// gru.c -- GRU step, through time, and bidirectional, with backward passes.
//
// B = batch, T = sequence length, D = input width, H = hidden width.
#include "layers/gru.h"

#include <math.h>
#include <string.h>

#include "base/fmath.h"
#include "base/tmat.h"

long gru_param_count(int d_in, int h) {
    if (d_in < 1 || h < 1) return 0;
    return 3L * h * d_in + 3L * h * h + 6L * h;
}

float *gru_bind(gru_params_t *p, float *buf, int d_in, int h) {
    if (d_in < 1 || h < 1) d_in = h = 0;    // sizes below 1: no parameters
    p->d_in = d_in;
    p->h = h;
    p->w_ih = buf;
    p->w_hh = p->w_ih + (size_t)3 * h * d_in;
    p->b_ih = p->w_hh + (size_t)3 * h * h;
    p->b_hh = p->b_ih + 3 * h;
    return p->b_hh + 3 * h;
}

// snippet: gru_cell_forward
void gru_cell_forward(const gru_params_t *p, const float *x, const float *h,
                      float *h_out, float *cache, float *work, int b) {
    int d = p->d_in, hd = p->h, g3 = 3 * hd;
    if (b < 1 || d < 1 || hd < 1) return;             // nothing to compute
    float *gi = work, *gh = work + (size_t)b * g3;
    tmat_set_rows(gi, p->b_ih, b, g3);
    tmat_mul_acc(x, p->w_ih, gi, b, d, g3);           // gi = x W_ih + b_ih
    tmat_set_rows(gh, p->b_hh, b, g3);
    tmat_mul_acc(h, p->w_hh, gh, b, hd, g3);          // gh = h W_hh + b_hh
    for (int i = 0; i < b; i++) {
        const float *a = gi + (size_t)i * g3, *c = gh + (size_t)i * g3;
        float *r = cache + (size_t)i * 4 * hd, *z = r + hd, *n = z + hd, *ghn = n + hd;
        for (int j = 0; j < 2 * hd; j++) r[j] = a[j] + c[j];    // r, then z after it
        sigmoid_n(r, (size_t)2 * hd);                           // reset, update gates
        for (int j = 0; j < hd; j++) {
            ghn[j] = c[2 * hd + j];                             // h W_hn + b_hn
            n[j] = a[2 * hd + j] + r[j] * ghn[j];
        }
        tanh_fast_n(n, (size_t)hd);                             // candidate
        float *hi = h_out + (size_t)i * hd;
        const float *h0 = h + (size_t)i * hd;
        for (int j = 0; j < hd; j++) hi[j] = (1.0f - z[j]) * n[j] + z[j] * h0[j];
    }
}
// end snippet

// snippet: gru_cell_backward
void gru_cell_backward(const gru_params_t *p, gru_params_t *g, const float *x,
                       const float *h, const float *cache, const float *dh_out,
                       float *dx, float *dh, float *work, int b) {
    int d = p->d_in, hd = p->h, g3 = 3 * hd;
    if (b < 1 || d < 1 || hd < 1) return;
    float *dgi = work, *dgh = work + (size_t)b * g3;
    for (int i = 0; i < b; i++) {
        const float *r = cache + (size_t)i * 4 * hd, *z = r + hd, *n = z + hd;
        const float *ghn = n + hd, *hp = h + (size_t)i * hd;
        const float *dho = dh_out + (size_t)i * hd;
        float *dai = dgi + (size_t)i * g3, *dah = dgh + (size_t)i * g3;
        for (int j = 0; j < hd; j++) {
            // Inverts: h_out = (1 - z) * n + z * h
            float dz = dho[j] * (hp[j] - n[j]);
            float dn = dho[j] * (1.0f - z[j]);
            dh[(size_t)i * hd + j] += dho[j] * z[j];
            // Inverts: n = tanh(gi_n + r * ghn)
            float dan = dn * (1.0f - n[j] * n[j]);
            float dr = dan * ghn[j];
            // Inverts: r = sigmoid(gi_r + gh_r), z = sigmoid(gi_z + gh_z)
            float dar = dr * r[j] * (1.0f - r[j]);
            float daz = dz * z[j] * (1.0f - z[j]);
            dai[j] = dar;
            dai[hd + j] = daz;
            dai[2 * hd + j] = dan;
            dah[j] = dar;
            dah[hd + j] = daz;
            dah[2 * hd + j] = dan * r[j];
        }
    }
    // Inverts: gi = x W_ih + b_ih and gh = h W_hh + b_hh
    if (dx) tmat_mul_bt_acc(dgi, p->w_ih, dx, b, d, g3);
    tmat_at_mul_acc(x, dgi, g->w_ih, b, d, g3);
    tmat_sum_rows_acc(dgi, g->b_ih, b, g3);
    tmat_mul_bt_acc(dgh, p->w_hh, dh, b, hd, g3);
    tmat_at_mul_acc(h, dgh, g->w_hh, b, hd, g3);
    tmat_sum_rows_acc(dgh, g->b_hh, b, g3);
}
// end snippet

void gru_seq_forward(const gru_params_t *p, const gru_seq_t *s, float *work) {
    const float *x = s->x, *h0 = s->h0;
    const unsigned char *mask = s->mask;
    float *hs = s->hs, *cache = s->cache;
    int t_len = s->t_len, b = s->b, reverse = s->reverse;
    int d = p->d_in, hd = p->h;
    if (t_len < 1 || b < 1 || d < 1 || hd < 1) return;
    size_t step = (size_t)b * hd;
    for (int k = 0; k < t_len; k++) {
        int t = reverse ? t_len - 1 - k : k;
        int tp = reverse ? t + 1 : t - 1;                 // the previous step
        const float *prev = k > 0 ? hs + (size_t)tp * step : h0;
        float *out = hs + (size_t)t * step;
        float *zero_h = work + (size_t)b * 6 * hd;        // h0 = 0 lives here
        if (!prev) {
            memset(zero_h, 0, step * sizeof *zero_h);
            prev = zero_h;
        }
        gru_cell_forward(p, x + (size_t)t * b * d, prev, out,
                         cache + (size_t)t * b * 4 * hd, work, b);
        if (mask)                                         // padding keeps the state
            for (int i = 0; i < b; i++)
                if (!mask[(size_t)i * t_len + t])
                    memcpy(out + (size_t)i * hd, prev + (size_t)i * hd,
                           (size_t)hd * sizeof *out);
    }
}

// snippet: gru_seq_backward
void gru_seq_backward(const gru_params_t *p, gru_params_t *g, const gru_seq_t *s,
                      const float *dhs, float *dx, float *dh0, float *work) {
    const float *x = s->x, *h0 = s->h0, *hs = s->hs, *cache = s->cache;
    const unsigned char *mask = s->mask;
    int t_len = s->t_len, b = s->b, reverse = s->reverse;
    int d = p->d_in, hd = p->h;
    if (t_len < 1 || b < 1 || d < 1 || hd < 1) return;
    size_t step = (size_t)b * hd;
    float *carry = work + (size_t)b * 6 * hd;    // dLoss/dh_t from later steps
    float *dcell = carry + step;                 // the part that enters the cell
    memset(carry, 0, step * sizeof *carry);
    for (int k = t_len - 1; k >= 0; k--) {
        int t = reverse ? t_len - 1 - k : k;
        int tp = reverse ? t + 1 : t - 1;
        const float *prev = k > 0 ? hs + (size_t)tp * step : h0;
        for (size_t i = 0; i < step; i++) carry[i] += dhs[(size_t)t * step + i];
        // Inverts: out = mask ? cell(x_t, prev) : prev
        for (int i = 0; i < b; i++) {
            int vis = !mask || mask[(size_t)i * t_len + t];
            for (int j = 0; j < hd; j++) {
                size_t q = (size_t)i * hd + j;
                dcell[q] = vis ? carry[q] : 0.0f;
                carry[q] = vis ? 0.0f : carry[q];
            }
        }
        if (prev) {
            gru_cell_backward(p, g, x + (size_t)t * b * d, prev,
                              cache + (size_t)t * b * 4 * hd, dcell,
                              dx ? dx + (size_t)t * b * d : NULL, carry, work, b);
        } else {   // h0 = zeros: the state gradient stops here
            float *hz = dcell + step;
            memset(hz, 0, step * sizeof *hz);
            gru_cell_backward(p, g, x + (size_t)t * b * d, hz,
                              cache + (size_t)t * b * 4 * hd, dcell,
                              dx ? dx + (size_t)t * b * d : NULL, carry, work, b);
        }
    }
    if (dh0)
        for (size_t i = 0; i < step; i++) dh0[i] += carry[i];
}
// end snippet

// snippet: bigru_forward
void bigru_forward(const gru_params_t *fwd, const gru_params_t *bwd,
                   const bigru_seq_t *s, float *out, float *work) {
    int hd = fwd->h;
    if (s->t_len < 1 || s->b < 1 || fwd->d_in < 1 || hd < 1) return;
    gru_seq_t f = {s->x, s->mask, NULL, s->hs_f, s->cache_f, s->t_len, s->b, 0};
    gru_seq_t r = {s->x, s->mask, NULL, s->hs_b, s->cache_b, s->t_len, s->b, 1};
    gru_seq_forward(fwd, &f, work);
    gru_seq_forward(bwd, &r, work);
    for (size_t q = 0; q < (size_t)s->t_len * s->b; q++) {  // out = [h_fwd; h_bwd]
        memcpy(out + q * 2 * hd, s->hs_f + q * hd, (size_t)hd * sizeof *out);
        memcpy(out + q * 2 * hd + hd, s->hs_b + q * hd, (size_t)hd * sizeof *out);
    }
}
// end snippet

void bigru_backward(const gru_params_t *fwd, const gru_params_t *bwd,
                    gru_params_t *gf, gru_params_t *gb, const bigru_seq_t *s,
                    const float *dout, float *dx, float *dsplit, float *work) {
    int hd = fwd->h;
    if (s->t_len < 1 || s->b < 1 || fwd->d_in < 1 || hd < 1) return;
    size_t rows = (size_t)s->t_len * s->b;
    float *df = dsplit, *db = dsplit + rows * hd;
    for (size_t r = 0; r < rows; r++) {   // Inverts: out = [h_fwd; h_bwd]
        memcpy(df + r * hd, dout + r * 2 * hd, (size_t)hd * sizeof *df);
        memcpy(db + r * hd, dout + r * 2 * hd + hd, (size_t)hd * sizeof *db);
    }
    gru_seq_t f = {s->x, s->mask, NULL, s->hs_f, s->cache_f, s->t_len, s->b, 0};
    gru_seq_t r = {s->x, s->mask, NULL, s->hs_b, s->cache_b, s->t_len, s->b, 1};
    gru_seq_backward(fwd, gf, &f, df, dx, NULL, work);
    gru_seq_backward(bwd, gb, &r, db, dx, NULL, work);
}
