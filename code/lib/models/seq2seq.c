// seq2seq.c -- the encoder-decoder: forward with teacher forcing, backward
// through the whole model, and greedy decoding.
//
// B = batch, T = source length, U = target length, E = embedding width,
// H = GRU width, K = 2H = annotation width, A = attention width, V = Vt.
// Activations are time-major: (T, B, .) and (U, B, .).
#include "models/seq2seq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmath.h"
#include "base/tmat.h"
#include "base/views.h"
#include "data/beam.h"
#include "layers/additive.h"
#include "layers/embedding.h"
#include "train/xent.h"

struct s2s_work {
    int *src_tm, *tin_tm, *tout_tm;  // ids in time-major order: (T*B), (U*B), (U*B)
    float *xs;                       // (T, B, E) source embeddings
    float *hs_f, *hs_b;              // (T, B, H)
    float *cache_f, *cache_b;        // (T, B, 4H)
    float *ann;                      // (T, B, K) annotations
    float *keys;                     // (T, B, A)
    float *cfix;                     // (B, K) [fwd_last; bwd_first]
    float *s0;                       // (B, H)
    float *ye;                       // (U, B, E) target-input embeddings
    float *ctx;                      // (U, B, K) contexts
    float *dec_x;                    // (U, B, E + K) decoder inputs
    float *s;                        // (U, B, H) decoder states
    float *dcache;                   // (U, B, 4H)
    float *alpha;                    // (U, B, T)
    float *th;                       // (U, T, B, A) tanh values of the scores
    float *o;                        // (U, B, 3H) [s_i; c_i]
    float *logits, *probs;           // (U, B, V)
    // gradients and scratch
    float *dxs, *dann, *dkeys, *dcfix, *dye, *ddx, *dlogits, *d_o, *dsplit;
    float *dcur, *dnext, *dc, *work;
};

int s2s_config_check(const s2s_config_t *c) {
    if (c->v_src < 1 || c->v_tgt < 1 || c->e < 1 || c->h < 1 || c->b_max < 1 ||
        c->t_max < 1 || c->u_max < 1 || (c->attention && c->a < 1))
        return -1;
    return 0;
}

// The parameter buffer's layout is written once, in param_layout: it hands out
// the views in buffer order (base/views.h), which also counts the floats (no
// buffer: count only, every view NULL), so s2s_param_count and s2s_bind walk the
// same code.

static void bind_gru(gru_params_t *g, views_t *k, int d_in, int h) {
    float *w = views_take(k, gru_param_count(d_in, h));
    if (w) gru_bind(g, w, d_in, h);
}

// p's views into buf (or NULL views when buf is NULL) for a checked config c;
// returns the floats they cover.
static long param_layout(s2s_params_t *p, float *buf, const s2s_config_t *c) {
    int h = c->h, k2 = 2 * c->h, e = c->e;
    views_t k = {buf, 0};
    memset(p, 0, sizeof *p);
    p->emb_src = views_take(&k, (long)c->v_src * e);
    p->emb_tgt = views_take(&k, (long)c->v_tgt * e);
    bind_gru(&p->enc_f, &k, e, h);
    bind_gru(&p->enc_b, &k, e, h);
    p->w_init = views_take(&k, (long)k2 * h);
    p->b_init = views_take(&k, h);
    if (c->attention) {               // NULL without attention
        p->w_a = views_take(&k, (long)h * c->a);
        p->u_a = views_take(&k, (long)k2 * c->a);
        p->v_a = views_take(&k, c->a);
    }
    bind_gru(&p->dec, &k, e + k2, h);
    p->w_out = views_take(&k, 3L * h * c->v_tgt);
    p->b_out = views_take(&k, c->v_tgt);
    return k.used;
}

long s2s_param_count(const s2s_config_t *c) {
    if (s2s_config_check(c)) return -1;
    s2s_params_t p;
    return param_layout(&p, NULL, c);
}

void s2s_bind(s2s_params_t *p, float *buf, const s2s_config_t *c) {
    if (s2s_config_check(c)) {
        memset(p, 0, sizeof *p);
        return;
    }
    param_layout(p, buf, c);
}

void s2s_init(float *buf, const s2s_config_t *c, rng_t *rng) {
    if (s2s_config_check(c)) return;
    s2s_params_t p;
    s2s_bind(&p, buf, c);
    long n_emb = (long)(c->v_src + c->v_tgt) * c->e, n = s2s_param_count(c);
    float k = 1.0f / sqrtf((float)c->h);
    rng_fill_normal(rng, buf, (int)n_emb, 0.0f, 1.0f);
    rng_fill_uniform(rng, buf + n_emb, (int)(n - n_emb), -k, k);
}

static void *zalloc(size_t n, size_t size, int *bad) {
    void *q = calloc(n ? n : 1, size);
    if (!q) *bad = 1;
    return q;
}

s2s_work_t *s2s_work_new(const s2s_config_t *c) {
    if (s2s_config_check(c)) return NULL;
    s2s_work_t *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t b = (size_t)c->b_max, t = (size_t)c->t_max, u = (size_t)c->u_max;
    size_t e = (size_t)c->e, h = (size_t)c->h, k = 2 * h, a = (size_t)c->a;
    size_t v = (size_t)c->v_tgt, fl = sizeof(float);
    size_t per_row = 9 * h > t + a ? 9 * h : t + a;
    if (per_row < a + 4 * h) per_row = a + 4 * h;
    int bad = 0;
    w->src_tm = zalloc(t * b, sizeof(int), &bad);
    w->tin_tm = zalloc(u * b, sizeof(int), &bad);
    w->tout_tm = zalloc(u * b, sizeof(int), &bad);
    w->xs = zalloc(t * b * e, fl, &bad);
    w->hs_f = zalloc(t * b * h, fl, &bad);
    w->hs_b = zalloc(t * b * h, fl, &bad);
    w->cache_f = zalloc(t * b * 4 * h, fl, &bad);
    w->cache_b = zalloc(t * b * 4 * h, fl, &bad);
    w->ann = zalloc(t * b * k, fl, &bad);
    w->keys = zalloc(t * b * a, fl, &bad);
    w->cfix = zalloc(b * k, fl, &bad);
    w->s0 = zalloc(b * h, fl, &bad);
    w->ye = zalloc(u * b * e, fl, &bad);
    w->ctx = zalloc(u * b * k, fl, &bad);
    w->dec_x = zalloc(u * b * (e + k), fl, &bad);
    w->s = zalloc(u * b * h, fl, &bad);
    w->dcache = zalloc(u * b * 4 * h, fl, &bad);
    w->alpha = zalloc(u * b * t, fl, &bad);
    w->th = zalloc(c->attention ? u * t * b * a : 1, fl, &bad);
    w->o = zalloc(u * b * 3 * h, fl, &bad);
    w->logits = zalloc(u * b * v, fl, &bad);
    w->probs = zalloc(u * b * v, fl, &bad);
    w->dxs = zalloc(t * b * e, fl, &bad);
    w->dann = zalloc(t * b * k, fl, &bad);
    w->dkeys = zalloc(t * b * a, fl, &bad);
    w->dcfix = zalloc(b * k, fl, &bad);
    w->dye = zalloc(u * b * e, fl, &bad);
    w->ddx = zalloc(b * (e + k), fl, &bad);
    w->dlogits = zalloc(u * b * v, fl, &bad);
    w->d_o = zalloc(u * b * 3 * h, fl, &bad);
    w->dsplit = zalloc(2 * t * b * h, fl, &bad);
    w->dcur = zalloc(b * h, fl, &bad);
    w->dnext = zalloc(b * h, fl, &bad);
    w->dc = zalloc(b * k, fl, &bad);
    w->work = zalloc(b * per_row, fl, &bad);
    if (bad) {
        s2s_work_free(w);
        return NULL;
    }
    return w;
}

void s2s_work_free(s2s_work_t *w) {
    if (!w) return;
    void *all[] = {w->src_tm, w->tin_tm, w->tout_tm, w->xs, w->hs_f, w->hs_b,
                   w->cache_f, w->cache_b, w->ann, w->keys, w->cfix, w->s0, w->ye,
                   w->ctx, w->dec_x, w->s, w->dcache, w->alpha, w->th, w->o,
                   w->logits, w->probs, w->dxs, w->dann, w->dkeys, w->dcfix, w->dye,
                   w->ddx, w->dlogits, w->d_o, w->dsplit, w->dcur, w->dnext, w->dc,
                   w->work};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i]);
    free(w);
}

// (B, T) -> (T, B)
static void to_time_major(const int *ids, int *tm, int b, int t_len) {
    for (int i = 0; i < b; i++)
        for (int t = 0; t < t_len; t++)
            tm[(size_t)t * b + i] = ids[(size_t)i * t_len + t];
}

// The encoder and the decoder's starting state.
static void encode(const s2s_params_t *p, const s2s_config_t *c, const int *src,
                   const unsigned char *mask, int b, int t_len, s2s_work_t *w) {
    int h = c->h, k = 2 * h;
    to_time_major(src, w->src_tm, b, t_len);
    embedding_forward(p->emb_src, w->src_tm, w->xs, t_len * b, c->v_src, c->e);
    bigru_seq_t enc = {w->xs, mask, w->hs_f, w->hs_b, w->cache_f, w->cache_b, t_len, b};
    bigru_forward(&p->enc_f, &p->enc_b, &enc, w->ann, w->work);
    for (int i = 0; i < b; i++) {   // cfix = [fwd at the last step; bwd at step 0]
        memcpy(w->cfix + (size_t)i * k, w->hs_f + ((size_t)(t_len - 1) * b + i) * h,
               (size_t)h * sizeof(float));
        memcpy(w->cfix + (size_t)i * k + h, w->hs_b + (size_t)i * h,
               (size_t)h * sizeof(float));
    }
    tmat_set_rows(w->s0, p->b_init, b, h);
    tmat_mul_acc(w->cfix, p->w_init, w->s0, b, k, h);
    tanh_fast_n(w->s0, (size_t)b * h);
    if (c->attention) addattn_keys_forward(w->ann, p->u_a, w->keys, t_len, b, k, c->a);
}

// Decoder step i: reads the input tokens (B,) and s_{i-1}; writes ye[i], ctx[i],
// dec_x[i], s[i], o[i] (and alpha[i], th[i] with attention).
static void decoder_step(const s2s_params_t *p, const s2s_config_t *c, s2s_work_t *w,
                         int i, const int *tokens, const unsigned char *mask, int b,
                         int t_len) {
    int h = c->h, k = 2 * h, e = c->e, dx = e + k;
    const float *prev = i > 0 ? w->s + (size_t)(i - 1) * b * h : w->s0;
    float *ye = w->ye + (size_t)i * b * e, *ctx = w->ctx + (size_t)i * b * k;
    float *x = w->dec_x + (size_t)i * b * dx, *si = w->s + (size_t)i * b * h;
    float *o = w->o + (size_t)i * b * 3 * h;
    embedding_forward(p->emb_tgt, tokens, ye, b, c->v_tgt, e);
    if (c->attention) {
        addattn_dims_t dims = {t_len, b, h, k, c->a};
        addattn_out_t out = {w->alpha + (size_t)i * b * t_len, ctx,
                             w->th + (size_t)i * t_len * b * c->a};
        addattn_forward(&dims, prev, p->w_a, p->v_a, w->keys, w->ann, mask, &out,
                        w->work);
    } else
        memcpy(ctx, w->cfix, (size_t)b * k * sizeof(float));
    for (int r = 0; r < b; r++) {   // x = [emb(y_{i-1}); c_i]
        memcpy(x + (size_t)r * dx, ye + (size_t)r * e, (size_t)e * sizeof(float));
        memcpy(x + (size_t)r * dx + e, ctx + (size_t)r * k, (size_t)k * sizeof(float));
    }
    gru_cell_forward(&p->dec, x, prev, si, w->dcache + (size_t)i * b * 4 * h, w->work,
                     b);
    for (int r = 0; r < b; r++) {   // o = [s_i; c_i]
        memcpy(o + (size_t)r * 3 * h, si + (size_t)r * h, (size_t)h * sizeof(float));
        memcpy(o + (size_t)r * 3 * h + h, ctx + (size_t)r * k,
               (size_t)k * sizeof(float));
    }
}

static int fits(const s2s_config_t *c, int b, int t_len, int u_len) {
    return b >= 1 && b <= c->b_max && t_len >= 1 && t_len <= c->t_max && u_len >= 1 &&
           u_len <= c->u_max;
}

// snippet: s2s_forward
double s2s_forward(const s2s_params_t *p, const s2s_config_t *c, const s2s_batch_t *bt,
                   s2s_work_t *w, int *count) {
    int b = bt->b, t_len = bt->t_len, u_len = bt->u_len, v = c->v_tgt;
    *count = 0;
    if (!fits(c, b, t_len, u_len)) return -1.0;
    encode(p, c, bt->src, bt->src_mask, b, t_len, w);
    to_time_major(bt->tgt_in, w->tin_tm, b, u_len);
    to_time_major(bt->tgt_out, w->tout_tm, b, u_len);
    for (int i = 0; i < u_len; i++)                      // teacher forcing
        decoder_step(p, c, w, i, w->tin_tm + (size_t)i * b, bt->src_mask, b, t_len);
    tmat_set_rows(w->logits, p->b_out, u_len * b, v);    // all steps at once
    tmat_mul_acc(w->o, p->w_out, w->logits, u_len * b, 3 * c->h, v);
    return xent_forward(w->logits, w->tout_tm, w->probs, u_len * b, v, S2S_PAD, count);
}
// end snippet

// The gradients of decoder step i (decoder_step's inverse): dcur holds
// dLoss/ds_i on entry and dLoss/ds_{i-1} on return (dcur and dnext swap).
// Accumulates (+=) into g, dye's rows of step i, dcfix or dkeys and dann.
static void decoder_step_backward(const s2s_params_t *p, s2s_params_t *g,
                                  const s2s_config_t *c, s2s_work_t *w, int i, int b,
                                  int t_len) {
    int h = c->h, k = 2 * h, e = c->e, dx = e + k, a = c->a;
    size_t bh = (size_t)b * h;
    const float *prev = i > 0 ? w->s + (size_t)(i - 1) * bh : w->s0;
    const float *d_o = w->d_o + (size_t)i * b * 3 * h;
    for (int r = 0; r < b; r++)            // Inverts: o = [s_i; c_i]
        for (int j = 0; j < h; j++) {
            w->dcur[(size_t)r * h + j] += d_o[(size_t)r * 3 * h + j];
            w->dc[(size_t)r * k + j] = d_o[(size_t)r * 3 * h + h + j];
            w->dc[(size_t)r * k + h + j] = d_o[(size_t)r * 3 * h + 2 * h + j];
        }
    // Inverts: s_i = GRU(x_i, s_{i-1})
    memset(w->dnext, 0, bh * sizeof(float));
    memset(w->ddx, 0, (size_t)b * dx * sizeof(float));
    gru_cell_backward(&p->dec, &g->dec, w->dec_x + (size_t)i * b * dx, prev,
                      w->dcache + (size_t)i * b * 4 * h, w->dcur, w->ddx, w->dnext,
                      w->work, b);
    for (int r = 0; r < b; r++) {          // Inverts: x_i = [emb(y_{i-1}); c_i]
        memcpy(w->dye + ((size_t)i * b + r) * e, w->ddx + (size_t)r * dx,
               (size_t)e * sizeof(float));
        for (int j = 0; j < k; j++)
            w->dc[(size_t)r * k + j] += w->ddx[(size_t)r * dx + e + j];
    }
    if (c->attention) {                    // Inverts: c_i = attention(s_{i-1}, h)
        addattn_dims_t dims = {t_len, b, h, k, a};
        addattn_out_t fw = {w->alpha + (size_t)i * b * t_len, NULL,
                            w->th + (size_t)i * t_len * b * a};
        addattn_grads_t ga = {w->dnext, g->w_a, g->v_a, w->dkeys, w->dann};
        addattn_backward(&dims, prev, p->w_a, p->v_a, w->ann, &fw, w->dc, &ga, w->work);
    } else                                 // Inverts: c_i = cfix
        for (size_t q = 0; q < (size_t)b * k; q++) w->dcfix[q] += w->dc[q];
    float *tmp = w->dcur;              // dLoss/ds_{i-1} becomes current
    w->dcur = w->dnext;
    w->dnext = tmp;
}

void s2s_backward(const s2s_params_t *p, s2s_params_t *g, const s2s_config_t *c,
                  const s2s_batch_t *bt, s2s_work_t *w, float scale) {
    int b = bt->b, t_len = bt->t_len, u_len = bt->u_len, v = c->v_tgt;
    int h = c->h, k = 2 * h, e = c->e, a = c->a;
    size_t bh = (size_t)b * h;
    if (!fits(c, b, t_len, u_len)) return;
    memset(w->dlogits, 0, (size_t)u_len * b * v * sizeof(float));
    memset(w->d_o, 0, (size_t)u_len * b * 3 * h * sizeof(float));
    memset(w->dann, 0, (size_t)t_len * b * k * sizeof(float));
    memset(w->dkeys, 0, (size_t)t_len * b * a * sizeof(float));
    memset(w->dcfix, 0, (size_t)b * k * sizeof(float));
    memset(w->dxs, 0, (size_t)t_len * b * e * sizeof(float));
    memset(w->dcur, 0, bh * sizeof(float));
    // Inverts: loss = cross_entropy(o W_out + b_out, y)
    xent_backward(w->probs, w->tout_tm, w->dlogits, u_len * b, v, S2S_PAD, scale);
    tmat_at_mul_acc(w->o, w->dlogits, g->w_out, u_len * b, 3 * h, v);
    tmat_sum_rows_acc(w->dlogits, g->b_out, u_len * b, v);
    tmat_mul_bt_acc(w->dlogits, p->w_out, w->d_o, u_len * b, 3 * h, v);
    for (int i = u_len - 1; i >= 0; i--) decoder_step_backward(p, g, c, w, i, b, t_len);
    // Inverts: s_0 = tanh(cfix W_init + b_init)
    for (size_t q = 0; q < bh; q++) w->dcur[q] *= 1.0f - w->s0[q] * w->s0[q];
    tmat_at_mul_acc(w->cfix, w->dcur, g->w_init, b, k, h);
    tmat_sum_rows_acc(w->dcur, g->b_init, b, h);
    tmat_mul_bt_acc(w->dcur, p->w_init, w->dcfix, b, k, h);
    for (int r = 0; r < b; r++)                // Inverts: cfix = [fwd_last; bwd_first]
        for (int j = 0; j < h; j++) {
            size_t last = ((size_t)(t_len - 1) * b + r) * k;
            w->dann[last + j] += w->dcfix[(size_t)r * k + j];
            w->dann[(size_t)r * k + h + j] += w->dcfix[(size_t)r * k + h + j];
        }
    if (c->attention)                          // Inverts: keys = ann U_a
        addattn_keys_backward(w->ann, p->u_a, w->dkeys, w->dann, g->u_a, t_len, b, k,
                              a);
    bigru_seq_t enc = {w->xs, bt->src_mask, w->hs_f, w->hs_b, w->cache_f, w->cache_b,
                       t_len, b};
    bigru_backward(&p->enc_f, &p->enc_b, &g->enc_f, &g->enc_b, &enc, w->dann, w->dxs,
                   w->dsplit, w->work);
    // Inverts: the two embedding lookups
    embedding_backward(w->src_tm, w->dxs, g->emb_src, t_len * b, c->v_src, e);
    embedding_backward(w->tin_tm, w->dye, g->emb_tgt, u_len * b, c->v_tgt, e);
}

// snippet: s2s_greedy
int s2s_greedy(const s2s_params_t *p, const s2s_config_t *c, const int *src,
               const unsigned char *src_mask, int b, int t_len, int *out,
               float *alpha, s2s_work_t *w) {
    int h = c->h, v = c->v_tgt, u_max = c->u_max;
    if (!fits(c, b, t_len, 1)) return -1;
    encode(p, c, src, src_mask, b, t_len, w);
    int *tok = w->tin_tm, *done = w->tout_tm;            // (B,) each
    for (int r = 0; r < b; r++) {
        tok[r] = S2S_BOS;
        done[r] = 0;
    }
    for (size_t q = 0; q < (size_t)b * u_max; q++) out[q] = S2S_PAD;
    if (alpha) memset(alpha, 0, (size_t)b * u_max * t_len * sizeof *alpha);
    int n_done = 0;
    for (int i = 0; i < u_max && n_done < b; i++) {
        decoder_step(p, c, w, i, tok, src_mask, b, t_len);
        float *z = w->logits;                            // (B, V) for this step
        tmat_set_rows(z, p->b_out, b, v);
        tmat_mul_acc(w->o + (size_t)i * b * 3 * h, p->w_out, z, b, 3 * h, v);
        for (int r = 0; r < b; r++) {
            int best = 0;
            for (int j = 1; j < v; j++)
                if (z[(size_t)r * v + j] > z[(size_t)r * v + best]) best = j;
            if (done[r]) continue;
            out[(size_t)r * u_max + i] = best;
            if (alpha && c->attention)
                memcpy(alpha + ((size_t)r * u_max + i) * t_len,
                       w->alpha + ((size_t)i * b + r) * t_len,
                       (size_t)t_len * sizeof *alpha);
            if (best == S2S_EOS) {
                done[r] = 1;
                n_done++;
            }
            tok[r] = best;
        }
    }
    return 0;
}
// end snippet

// Row r of logits z (b, V) -> lp (b, V): its log-softmax (z - log sum exp z).
static void log_softmax_rows(const float *z, float *lp, int b, int v) {
    for (int r = 0; r < b; r++) {
        const float *zr = z + (size_t)r * v;
        float mx = zr[0];
        for (int j = 1; j < v; j++) mx = zr[j] > mx ? zr[j] : mx;
        double sum = 0.0;
        for (int j = 0; j < v; j++) sum += exp((double)zr[j] - mx);
        double lse = mx + log(sum);
        for (int j = 0; j < v; j++) lp[(size_t)r * v + j] = (float)(zr[j] - lse);
    }
}

// Decoder states s (rows, h) of one step <- row parent(r) for every kept
// hypothesis r of each sentence's search; tok (rows,) <- its last token.
static void beam_reorder(const beam_t *bs, int n, int beam, float *s, float *tmp,
                         int *tok, int h) {
    memcpy(tmp, s, (size_t)n * beam * h * sizeof *s);
    for (int q = 0; q < n; q++) {
        const beam_hyp_t *row = bs[q].hist + (size_t)(bs[q].step - 1) * beam;
        for (int r = 0; r < beam; r++) {
            size_t at = (size_t)q * beam + r;
            tok[at] = r < bs[q].alive ? row[r].token : S2S_EOS;
            int from = r < bs[q].alive ? row[r].parent : r;
            memcpy(s + at * h, tmp + ((size_t)q * beam + from) * h,
                   (size_t)h * sizeof *s);
        }
    }
}

// snippet: s2s_beam
int s2s_beam(const s2s_params_t *p, const s2s_config_t *c, const int *src,
             const unsigned char *src_mask, int n, int t_len, int beam, int *out,
             double *score, s2s_work_t *w) {
    if (n < 1 || beam < 1 || n > c->b_max / beam) return -1;
    int h = c->h, v = c->v_tgt, u_max = c->u_max, b = n * beam;
    if (!fits(c, b, t_len, 1)) return -1;
    size_t bt = (size_t)b * t_len;
    int *src_b = malloc(bt * sizeof *src_b), *tok = malloc((size_t)b * sizeof *tok);
    unsigned char *mask_b = malloc(bt);
    float *lp = malloc((size_t)b * (v + h) * sizeof *lp);   // log probs; states
    beam_t *bs = calloc((size_t)n, sizeof *bs);
    int bad = !src_b || !tok || !mask_b || !lp || !bs;
    float *tmp = bad ? NULL : lp + (size_t)b * v;
    for (int q = 0; q < n && !bad; q++)
        bad = beam_begin(&bs[q], v, S2S_EOS, beam, u_max);
    for (int r = 0; r < b && !bad; r++) {       // every hypothesis row reads its source
        memcpy(src_b + (size_t)r * t_len, src + (size_t)(r / beam) * t_len,
               (size_t)t_len * sizeof *src_b);
        memcpy(mask_b + (size_t)r * t_len, src_mask + (size_t)(r / beam) * t_len,
               (size_t)t_len);
        tok[r] = S2S_BOS;
    }
    if (!bad) encode(p, c, src_b, mask_b, b, t_len, w);
    for (int i = 0; i < u_max && !bad; i++) {
        decoder_step(p, c, w, i, tok, mask_b, b, t_len);
        tmat_set_rows(w->logits, p->b_out, b, v);
        tmat_mul_acc(w->o + (size_t)i * b * 3 * h, p->w_out, w->logits, b, 3 * h, v);
        log_softmax_rows(w->logits, lp, b, v);
        int going = 0;
        for (int q = 0; q < n; q++)             // sentence q: rows q beam, ...
            going += beam_step(&bs[q], lp + (size_t)q * beam * v);
        if (!going) break;
        beam_reorder(bs, n, beam, w->s + (size_t)i * b * h, tmp, tok, h);
    }
    for (int q = 0; q < n && !bad; q++) {
        for (int j = 0; j < u_max; j++) out[(size_t)q * u_max + j] = S2S_PAD;
        double sc = 0.0;
        beam_end(&bs[q], out + (size_t)q * u_max, &sc);
        if (score) score[q] = sc;
    }
    for (int q = 0; bs && q < n; q++) beam_end(&bs[q], NULL, NULL);
    free(src_b);
    free(tok);
    free(mask_b);
    free(lp);
    free(bs);
    return bad ? -1 : 0;
}
// end snippet

double s2s_model_forward(void *model, const void *batch, int *count) {
    s2s_model_t *m = model;
    return s2s_forward(&m->p, &m->cfg, batch, m->work, count);
}

int s2s_model_backward(void *model, const void *batch, float scale) {
    s2s_model_t *m = model;
    s2s_backward(&m->p, &m->g, &m->cfg, batch, m->work, scale);
    return 0;
}
