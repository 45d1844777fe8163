// transformer.c -- the encoder-decoder Transformer, batched forward and
// backward passes, and greedy decoding with a key/value cache.
#include "models/transformer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmath.h"
#include "base/tmat.h"
#include "base/v4f.h"
#include "base/views.h"
#include "layers/block_train.h"
#include "layers/embedding.h"
#include "layers/layernorm.h"
#include "base/linear.h"
#include "position/sinusoidal.h"
#include "train/xent.h"

// ---------------------------------------------------------------------------
// parameters

int tf_config_check(const tf_config_t *c) {
    if (c->v_src < 1 || c->v_tgt < 1 || c->d_model < 1 || c->n_heads < 1 || c->d_ff < 1)
        return -1;
    if (c->d_model % c->n_heads) return -1;
    if (c->n_enc < 1 || c->n_dec < 1 || c->n_enc > TF_MAX_LAYERS ||
        c->n_dec > TF_MAX_LAYERS)
        return -1;
    if (c->b_max < 1 || c->t_max < 1 || c->u_max < 1) return -1;
    return 0;
}

// Take n floats from *buf.
static float *take(float **buf, long n) {
    float *r = *buf;
    *buf += n;
    return r;
}

// The parameter buffer's layout is written once, in param_layout: it hands out
// the views in buffer order (base/views.h), which also counts the floats (no
// buffer: count only, every view NULL), so tf_param_count and tf_bind walk the
// same code.

static void bind_mha(mha_params_t *m, views_t *k, int d, int h) {
    m->d_model = d, m->n_heads = h, m->d_k = d / h;
    m->w_q = views_take(k, (long)d * d);
    m->w_k = views_take(k, (long)d * d);
    m->w_v = views_take(k, (long)d * d);
    m->w_o = views_take(k, (long)d * d);
    m->b_o = views_take(k, d);
}

static void bind_ffn(ffn_params_t *f, views_t *k, int d, int d_ff) {
    f->d_model = d, f->d_ff = d_ff;
    f->w1 = views_take(k, (long)d * d_ff);
    f->b1 = views_take(k, d_ff);
    f->w2 = views_take(k, (long)d_ff * d);
    f->b2 = views_take(k, d);
}

static void bind_ln(layernorm_params_t *ln, views_t *k, int d) {
    ln->d = d;
    ln->gamma = views_take(k, d);
    ln->beta = views_take(k, d);
}

// p's views into buf (or NULL views when buf is NULL) for a checked config c;
// returns the floats they cover.
static long param_layout(tf_params_t *p, float *buf, const tf_config_t *c) {
    int d = c->d_model, h = c->n_heads;
    views_t k = {buf, 0};
    memset(p, 0, sizeof *p);
    p->emb_src = views_take(&k, (long)c->v_src * d);
    p->emb_tgt = views_take(&k, (long)c->v_tgt * d);
    for (int l = 0; l < c->n_enc; l++) {
        encoder_block_t *e = &p->enc[l];
        bind_mha(&e->attn, &k, d, h);
        bind_ln(&e->norm1, &k, d);
        bind_ffn(&e->ffn, &k, d, c->d_ff);
        bind_ln(&e->norm2, &k, d);
    }
    for (int l = 0; l < c->n_dec; l++) {
        decoder_block_t *e = &p->dec[l];
        bind_mha(&e->self_attn, &k, d, h);
        bind_ln(&e->norm1, &k, d);
        bind_mha(&e->cross_attn, &k, d, h);
        bind_ln(&e->norm2, &k, d);
        bind_ffn(&e->ffn, &k, d, c->d_ff);
        bind_ln(&e->norm3, &k, d);
    }
    p->w_out = views_take(&k, (long)d * c->v_tgt);
    p->b_out = views_take(&k, c->v_tgt);
    return k.used;
}

long tf_param_count(const tf_config_t *c) {
    if (tf_config_check(c)) return -1;
    tf_params_t p;
    return param_layout(&p, NULL, c);
}

void tf_bind(tf_params_t *p, float *buf, const tf_config_t *c) {
    if (tf_config_check(c)) {
        memset(p, 0, sizeof *p);
        return;
    }
    param_layout(p, buf, c);
}

static void init_ln(layernorm_params_t *ln) {
    for (int j = 0; j < ln->d; j++) ln->gamma[j] = 1.0f, ln->beta[j] = 0.0f;
}

void tf_init(float *buf, const tf_config_t *c, rng_t *rng) {
    long n = tf_param_count(c);
    if (n < 0) return;
    memset(buf, 0, (size_t)n * sizeof *buf);
    tf_params_t p;
    tf_bind(&p, buf, c);
    linear_init_xavier(rng, p.emb_src, c->v_src, c->d_model);
    linear_init_xavier(rng, p.emb_tgt, c->v_tgt, c->d_model);
    for (int l = 0; l < c->n_enc; l++) {
        encoder_block_init(&p.enc[l], rng);   // Xavier weights, zero biases
        init_ln(&p.enc[l].norm1);
        init_ln(&p.enc[l].norm2);
    }
    for (int l = 0; l < c->n_dec; l++) {
        decoder_block_init(&p.dec[l], rng);
        init_ln(&p.dec[l].norm1);
        init_ln(&p.dec[l].norm2);
        init_ln(&p.dec[l].norm3);
    }
    linear_init_xavier(rng, p.w_out, c->d_model, c->v_tgt);
}

// ---------------------------------------------------------------------------
// the workspace

// What one attention sub-layer keeps: queries, keys, values and the context
// vectors as (rows, d) with head i in columns [i d_k, (i+1) d_k), and the
// weights (B, h, rows_q, rows_k).
typedef struct {
    float *q, *k, *v, *a, *ctx;
} att_cache_t;

typedef struct {
    att_cache_t att;
    float *s1, *h1, *hid, *s2, *y;   // (R, d), (R, d), (R, d_ff), (R, d), (R, d)
} enc_cache_t;

typedef struct {
    att_cache_t self, cross;
    float *s1, *h1, *s2, *h2, *hid, *s3, *y;
} dec_cache_t;

struct tf_work {
    float *mem;
    int b, t, u;                         // the shape of the last tf_forward
    float *pe;                           // (max(t_max, u_max), d) positions
    float *x_src, *x_tgt;                // embedded inputs (B T, d), (B U, d)
    enc_cache_t enc[TF_MAX_LAYERS];
    dec_cache_t dec[TF_MAX_LAYERS];
    float *logits, *probs;               // (B U, Vt)
    // backward scratch
    float *dlogits, *dy, *denc, *dh, *ds, *dq, *dk, *dv, *dctx, *dhid;
    float *wt;                           // a transposed weight matrix
    float *kt;                           // attend_head's scratch
    double *ln_ws;                       // layernorm_backward_ws's (2 d,)
    // greedy decoding: per decoder block, the cached self-attention keys and
    // values (B, u_max, d) and the projected encoder output (B, T, d) twice
    float *ks[TF_MAX_LAYERS], *vs[TF_MAX_LAYERS], *kc[TF_MAX_LAYERS],
        *vc[TF_MAX_LAYERS];
    float *step_x, *step_a; // (B, d) x 7, (B, Vt), (B, d_ff); (max(t_max, u_max),)
    const unsigned char *src_mask;       // of the last tf_forward
};

// Lay the workspace out in mem (or only count it when mem is NULL).
static long work_layout(struct tf_work *w, const tf_config_t *c, float *mem) {
    long d = c->d_model, f = c->d_ff, h = c->n_heads, b = c->b_max;
    long rs = b * c->t_max, rt = b * c->u_max, n_pe = c->t_max > c->u_max ? c->t_max
                                                                          : c->u_max;
    float *base = mem, *at = mem;
#define TAKE(field, n) ((field) = mem ? take(&at, (n)) : (at += (n), NULL))
    TAKE(w->pe, n_pe * d);
    TAKE(w->x_src, rs * d);
    TAKE(w->x_tgt, rt * d);
    for (int l = 0; l < c->n_enc; l++) {
        enc_cache_t *e = &w->enc[l];
        TAKE(e->att.q, rs * d), TAKE(e->att.k, rs * d), TAKE(e->att.v, rs * d);
        TAKE(e->att.a, b * h * c->t_max * c->t_max), TAKE(e->att.ctx, rs * d);
        TAKE(e->s1, rs * d), TAKE(e->h1, rs * d), TAKE(e->hid, rs * f);
        TAKE(e->s2, rs * d), TAKE(e->y, rs * d);
    }
    for (int l = 0; l < c->n_dec; l++) {
        dec_cache_t *e = &w->dec[l];
        TAKE(e->self.q, rt * d), TAKE(e->self.k, rt * d), TAKE(e->self.v, rt * d);
        TAKE(e->self.a, b * h * c->u_max * c->u_max), TAKE(e->self.ctx, rt * d);
        TAKE(e->cross.q, rt * d), TAKE(e->cross.k, rs * d), TAKE(e->cross.v, rs * d);
        TAKE(e->cross.a, b * h * c->u_max * c->t_max), TAKE(e->cross.ctx, rt * d);
        TAKE(e->s1, rt * d), TAKE(e->h1, rt * d), TAKE(e->s2, rt * d);
        TAKE(e->h2, rt * d), TAKE(e->hid, rt * f), TAKE(e->s3, rt * d);
        TAKE(e->y, rt * d);
        TAKE(w->ks[l], rt * d), TAKE(w->vs[l], rt * d);
        TAKE(w->kc[l], rs * d), TAKE(w->vc[l], rs * d);
    }
    long r = rs > rt ? rs : rt;
    TAKE(w->logits, rt * c->v_tgt), TAKE(w->probs, rt * c->v_tgt);
    TAKE(w->dlogits, rt * c->v_tgt);
    TAKE(w->dy, r * d), TAKE(w->denc, rs * d), TAKE(w->dh, r * d);
    TAKE(w->ds, r * d), TAKE(w->dq, r * d), TAKE(w->dk, r * d), TAKE(w->dv, r * d);
    TAKE(w->dctx, r * d), TAKE(w->dhid, r * f);
    long wmax = d * (f > d ? f : d);
    TAKE(w->wt, wmax > d * c->v_tgt ? wmax : d * c->v_tgt);
    TAKE(w->step_x, 7 * b * d + b * c->v_tgt + b * f), TAKE(w->step_a, n_pe);
    TAKE(w->kt, n_pe * (d + 2));
#undef TAKE
    return (long)(at - base);
}

tf_work_t *tf_work_new(const tf_config_t *c) {
    if (tf_config_check(c)) return NULL;
    struct tf_work *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    long n = work_layout(w, c, NULL);
    w->mem = calloc((size_t)n, sizeof(float));
    if (!w->mem) {
        free(w);
        return NULL;
    }
    work_layout(w, c, w->mem);
    w->ln_ws = malloc(layernorm_scratch_doubles(c->d_model) * sizeof(double));
    if (!w->ln_ws) {
        tf_work_free(w);
        return NULL;
    }
    int n_pe = c->t_max > c->u_max ? c->t_max : c->u_max;
    sinusoidal_table(w->pe, n_pe, c->d_model, 0, SINUSOIDAL_BASE);
    return w;
}

void tf_work_free(tf_work_t *w) {
    if (!w) return;
    free(w->mem);
    free(w->ln_ws);
    free(w);
}

const float *tf_logits(const tf_work_t *w) { return w->logits; }

// ---------------------------------------------------------------------------
// attention, one query row at a time

// snippet: attend_row
// One query of one head: q (d_k,) against keys k_j and values v_j, j < n_keys,
// row j of each at k + j * stride (the head's columns of a (rows, d) matrix).
// key_mask (n_keys,) or NULL: 1 = visible. -> a (n_keys,) the weights, 0 at
// hidden keys; ctx (d_k,) = sum_j a_j v_j. No visible key: a = 0, ctx = 0.
static void attend_row(const float *q, const float *k, const float *v, int stride,
                       int n_keys, int d_k, const unsigned char *key_mask, float *a,
                       float *ctx) {
    float scale = 1.0f / sqrtf((float)d_k), mx = -INFINITY;
    for (int j = 0; j < n_keys; j++) {
        a[j] = 0.0f;
        if (key_mask && !key_mask[j]) continue;
        const float *kj = k + (size_t)j * stride;
        float s = 0.0f;
        for (int c = 0; c < d_k; c++) s += q[c] * kj[c];
        a[j] = s * scale;                       // the score q . k_j / sqrt(d_k)
        if (a[j] > mx) mx = a[j];
    }
    float sum = 0.0f;
    for (int j = 0; j < n_keys; j++) {
        if (key_mask && !key_mask[j]) continue;
        a[j] = expf(a[j] - mx);                 // softmax over the visible keys
        sum += a[j];
    }
    for (int c = 0; c < d_k; c++) ctx[c] = 0.0f;
    if (sum == 0.0f) return;
    for (int j = 0; j < n_keys; j++) {
        a[j] /= sum;
        const float *vj = v + (size_t)j * stride;
        for (int c = 0; c < d_k; c++) ctx[c] += a[j] * vj[c];
    }
}
// end snippet

// snippet: attend_row_backward
// Gradients of attend_row, given what it saw and made (fw: q, k, v, its
// weights a) and dd->ctx (d_k,); accumulate (+=) into dd->q (d_k,) and the rows
// of dd->k, dd->v (the same stride as k, v).
static void attend_row_backward(const att_cache_t *fw, att_cache_t *dd, int stride,
                                int n_keys, int d_k) {
    const float *q = fw->q, *k = fw->k, *v = fw->v, *a = fw->a, *dctx = dd->ctx;
    float *dq = dd->q, *dk = dd->k, *dv = dd->v;
    float scale = 1.0f / sqrtf((float)d_k), dot_ad = 0.0f;
    float da[n_keys];
    for (int j = 0; j < n_keys; j++) {
        const float *vj = v + (size_t)j * stride;
        float *dvj = dv + (size_t)j * stride, s = 0.0f;
        for (int c = 0; c < d_k; c++) {
            s += dctx[c] * vj[c];               // Inverts: ctx = sum_j a_j v_j
            dvj[c] += a[j] * dctx[c];
        }
        da[j] = s;
        dot_ad += a[j] * s;
    }
    for (int j = 0; j < n_keys; j++) {
        if (a[j] == 0.0f) continue;
        // Inverts: a = softmax(s): ds_j = a_j (da_j - sum_i a_i da_i)
        float ds = a[j] * (da[j] - dot_ad) * scale;
        const float *kj = k + (size_t)j * stride;
        float *dkj = dk + (size_t)j * stride;
        for (int c = 0; c < d_k; c++) {       // Inverts: s_j = q . k_j * scale
            dq[c] += ds * kj[c];
            dkj[c] += ds * q[c];
        }
    }
}
// end snippet

// ---------------------------------------------------------------------------
// attend_row and attend_row_backward for a whole head, on vectors

// The loops above, for all the queries of one head at once, arranged so the
// compiler can use vector instructions: keys transposed so that one query's
// scores are computed for four or eight keys at a time, and four columns of a
// context or a gradient row kept in one register. Every number is still the
// same sum, term by term in the same order, so the results are those of
// attend_row and attend_row_backward, bit for bit: the program's cache check
// decodes with attend_row and compares, and tests/unit/test_transformer.c
// compares forward and gradients with this file built without these (define
// TF_ROWWISE). They need d_k a multiple of 4; other heads take the loops above.
// attend_head and attend_head_backward are compiled twice, for any x86-64 and
// for AVX2 (target_clones: the loader picks), where the loops over keys take
// eight at a time; no contraction or reordering either way, so the same bits.

// The d_k columns of one head, rows (n, stride) from m -> t (d_k, n): one key's
// numbers in a column, so that a loop over keys reads consecutive floats.
static void transpose_head(const float *m, int stride, int n, int d_k, float *t) {
    for (int j = 0; j < n; j++)
        for (int c = 0; c < d_k; c++) t[(size_t)c * n + j] = m[(size_t)j * stride + c];
}

// out_j = sum_c x_c t[c][j] for j < n_used, t (d_k, n): summed from 0 in order
// of c, as attend_row sums q . k_j; the loop over j vectorises.
static void dots_by_column(const float *x, const float *t, int n, int n_used, int d_k,
                           float *restrict out) {
    for (int j = 0; j < n_used; j++) out[j] = 0.0f;
    for (int c = 0; c < d_k; c++) {
        const float *restrict tc = t + (size_t)c * n;
        float xc = x[c];
        for (int j = 0; j < n_used; j++) out[j] += xc * tc[j];
    }
}

// attend_row for every query of one head: h->q, h->ctx (tq rows), h->k, h->v
// (tk rows), all with one stride; h->a (tq, tk); kt (d_k tk) scratch.
__attribute__((target_clones("avx2", "default")))
static void attend_head(const att_cache_t *h, int stride, int tq, int tk, int d_k,
                        const unsigned char *key_mask, int causal, float *kt) {
    const float *q = h->q, *v = h->v;
    float *a = h->a, *ctx = h->ctx, scale = 1.0f / sqrtf((float)d_k);
    transpose_head(h->k, stride, tk, d_k, kt);
    for (int i = 0; i < tq; i++) {
        float *ai = a + (size_t)i * tk, *ci = ctx + (size_t)i * stride, mx = -INFINITY;
        int n_keys = causal ? i + 1 : tk;
        dots_by_column(q + (size_t)i * stride, kt, tk, n_keys, d_k, ai);
        for (int j = 0; j < tk; j++) {
            if (j >= n_keys || (key_mask && !key_mask[j])) {
                ai[j] = 0.0f;
                continue;
            }
            ai[j] *= scale;
            if (ai[j] > mx) mx = ai[j];
        }
        for (int j = 0; j < n_keys; j++)      // a hidden key: e^-inf = 0
            ai[j] = key_mask && !key_mask[j] ? -INFINITY : ai[j] - mx;
        expf_n(ai, (size_t)n_keys);
        float sum = 0.0f;
        for (int j = 0; j < n_keys; j++) sum += ai[j];
        for (int c = 0; c < d_k; c++) ci[c] = 0.0f;
        if (sum == 0.0f) continue;
        for (int j = 0; j < n_keys; j++) ai[j] /= sum;
        for (int c0 = 0; c0 < d_k; c0 += 4) {
            v4f acc = load4(ci + c0);
            for (int j = 0; j < n_keys; j++)
                acc += load4(v + (size_t)j * stride + c0) * ai[j];
            store4(ci + c0, acc);
        }
    }
}

// attend_row_backward for every query of one head: fw as attend_head's inputs
// and a (tq, tk); dd->ctx (tq rows) -> dd->q (tq rows), dd->k, dd->v (tk rows)
// +=. vt (d_k tk), g and ds (tk,) scratch.
__attribute__((target_clones("avx2", "default")))
static void attend_head_backward(const att_cache_t *fw, att_cache_t *dd, int stride,
                                 int tq, int tk, int d_k, int causal, float *vt,
                                 float *g, float *ds) {
    float scale = 1.0f / sqrtf((float)d_k);
    transpose_head(fw->v, stride, tk, d_k, vt);
    for (int i = 0; i < tq; i++) {
        const float *a = fw->a + (size_t)i * tk, *q = fw->q + (size_t)i * stride;
        const float *dctx = dd->ctx + (size_t)i * stride;
        float *dq = dd->q + (size_t)i * stride, dot_ad = 0.0f;
        int n_keys = causal ? i + 1 : tk;
        dots_by_column(dctx, vt, tk, n_keys, d_k, g);
        for (int j = 0; j < n_keys; j++) {
            float *dvj = dd->v + (size_t)j * stride;
            for (int c0 = 0; c0 < d_k; c0 += 4)
                store4(dvj + c0, load4(dvj + c0) + a[j] * load4(dctx + c0));
            dot_ad += a[j] * g[j];
        }
        for (int j = 0; j < n_keys; j++)
            ds[j] = a[j] == 0.0f ? 0.0f : a[j] * (g[j] - dot_ad) * scale;
        for (int c0 = 0; c0 < d_k; c0 += 4) {
            v4f acc = load4(dq + c0), qc = load4(q + c0);
            for (int j = 0; j < n_keys; j++) {
                if (a[j] == 0.0f) continue;
                float *dkj = dd->k + (size_t)j * stride + c0;
                acc += ds[j] * load4(fw->k + (size_t)j * stride + c0);
                store4(dkj, load4(dkj) + ds[j] * qc);
            }
            store4(dq + c0, acc);
        }
    }
}

// Whether a head of width d_k runs on vectors (above) or row by row.
static int by_vectors(int d_k) {
#ifdef TF_ROWWISE
    (void)d_k;
    return 0;
#else
    return d_k % 4 == 0;
#endif
}

// Where head hh of sequence s starts: in the queries (B tq, d) (q0), the keys
// and values (B tk, d) (k0), and the weights (B, h, tq, tk) (a0).
typedef struct {
    size_t q0, k0, a0;
} head_at_t;

static head_at_t head_at(int s, int hh, int tq, int tk, int d, int h) {
    size_t d_k = (size_t)(d / h);
    return (head_at_t){(size_t)s * tq * d + hh * d_k, (size_t)s * tk * d + hh * d_k,
                       ((size_t)s * h + hh) * tq * tk};
}

// The attention of a batch: queries (B tq, d), keys and values (B tk, d) ->
// a (B, h, tq, tk), ctx (B tq, d). key_mask (B, tk) or NULL; causal: query i
// sees keys j <= i. kt: (d tk) floats of scratch.
static void attend_batch(const att_cache_t *c, int b, int tq, int tk, int d, int h,
                         const unsigned char *key_mask, int causal, float *kt) {
    int d_k = d / h;
    for (int s = 0; s < b; s++)
        for (int hh = 0; hh < h; hh++) {
            const head_at_t o = head_at(s, hh, tq, tk, d, h);
            size_t q0 = o.q0, k0 = o.k0;
            float *a = c->a + o.a0;
            const unsigned char *m = key_mask ? key_mask + (size_t)s * tk : NULL;
            if (by_vectors(d_k)) {
                const att_cache_t head = {c->q + q0, c->k + k0, c->v + k0, a,
                                          c->ctx + q0};
                attend_head(&head, d, tq, tk, d_k, m, causal, kt);
                continue;
            }
            for (int i = 0; i < tq; i++) {
                int n_keys = causal ? i + 1 : tk;
                float *ai = a + (size_t)i * tk;
                attend_row(c->q + q0 + (size_t)i * d, c->k + k0, c->v + k0, d, n_keys,
                           d_k, m, ai, c->ctx + q0 + (size_t)i * d);
                for (int j = n_keys; j < tk; j++) ai[j] = 0.0f;
            }
        }
}

// One attention sub-layer's call: queries from xq (B tq, d), keys and values
// from xkv (B tk, d), h heads; causal: query i sees keys j <= i.
typedef struct {
    const float *xq, *xkv;
    int b, tq, tk, h, causal;
} att_call_t;

// Gradients of attend_batch given dd->ctx (B tq, d); accumulate (+=) into
// dd->q (B tq, d), dd->k and dd->v (B tk, d). vt: (d tk + 2 tk) floats of
// scratch.
static void attend_batch_backward(const att_cache_t *c, att_cache_t *dd,
                                  const att_call_t *at, int d, float *vt) {
    int b = at->b, tq = at->tq, tk = at->tk, h = at->h;
    int causal = at->causal, d_k = d / h;
    for (int s = 0; s < b; s++)
        for (int hh = 0; hh < h; hh++) {
            const head_at_t o = head_at(s, hh, tq, tk, d, h);
            size_t q0 = o.q0, k0 = o.k0;
            float *a = c->a + o.a0;
            if (by_vectors(d_k)) {
                const att_cache_t fw = {c->q + q0, c->k + k0, c->v + k0, a, NULL};
                att_cache_t head = {dd->q + q0, dd->k + k0, dd->v + k0, NULL,
                                    dd->ctx + q0};
                float *g = vt + (size_t)d_k * tk, *ds = g + tk;
                attend_head_backward(&fw, &head, d, tq, tk, d_k, causal, vt, g, ds);
                continue;
            }
            for (int i = 0; i < tq; i++) {
                size_t qi = q0 + (size_t)i * d;
                const att_cache_t fw = {c->q + qi, c->k + k0, c->v + k0,
                                        a + (size_t)i * tk, NULL};
                att_cache_t row = {dd->q + qi, dd->k + k0, dd->v + k0, NULL,
                                   dd->ctx + qi};
                attend_row_backward(&fw, &row, d, causal ? i + 1 : tk, d_k);
            }
        }
}

// dx (n, k) += dy (n, m) w^T for w (k, m): w transposed once into wt (m, k),
// then the forward product, whose loops vectorise (tmat_mul_bt_acc's dot
// products of length m do not, for m as small as d_model).
static void mul_bt(const float *dy, const float *w, float *dx, int n, int k, int m,
                   float *wt) {
    for (int p = 0; p < k; p++)
        for (int j = 0; j < m; j++) wt[(size_t)j * k + p] = w[(size_t)p * m + j];
    tmat_mul_acc(dy, wt, dx, n, m, k);
}

// ---------------------------------------------------------------------------
// sub-layers of a batch of rows

// out (rows, d) = x + ctx W_o + b_o: the attention's output added to its input.
static void attn_out_residual(const mha_params_t *p, const float *x, const float *ctx,
                              float *out, int rows) {
    int d = p->d_model;
    memcpy(out, x, (size_t)rows * d * sizeof *out);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < d; j++) out[(size_t)i * d + j] += p->b_o[j];
    tmat_mul_acc(ctx, p->w_o, out, rows, d, d);
}

// q = xq W_q, k = xkv W_k, v = xkv W_v.
static void project_qkv(const mha_params_t *p, const float *xq, int rq,
                        const float *xkv, int rk, const att_cache_t *c) {
    int d = p->d_model;
    memset(c->q, 0, (size_t)rq * d * sizeof(float));
    memset(c->k, 0, (size_t)rk * d * sizeof(float));
    memset(c->v, 0, (size_t)rk * d * sizeof(float));
    tmat_mul_acc(xq, p->w_q, c->q, rq, d, d);
    tmat_mul_acc(xkv, p->w_k, c->k, rk, d, d);
    tmat_mul_acc(xkv, p->w_v, c->v, rk, d, d);
}

// s (rows, d) = x + FFN(x), hid = ReLU(x W_1 + b_1).
static void ffn_residual(const ffn_params_t *p, const float *x, float *hid, float *s,
                         int rows) {
    int d = p->d_model, f = p->d_ff;
    tmat_set_rows(hid, p->b1, rows, f);
    tmat_mul_acc(x, p->w1, hid, rows, d, f);
    for (size_t i = 0; i < (size_t)rows * f; i++)
        hid[i] = hid[i] > 0.0f ? hid[i] : 0.0f;
    memcpy(s, x, (size_t)rows * d * sizeof *s);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < d; j++) s[(size_t)i * d + j] += p->b2[j];
    tmat_mul_acc(hid, p->w2, s, rows, f, d);
}

// ---------------------------------------------------------------------------
// forward

// x (B, n, d) = emb[ids] * sqrt(d) + PE, each sentence's positions from 0.
static int embed(const float *table, const int *ids, const float *pe, float *x, int b,
                 int n, int v, int d) {
    for (int s = 0; s < b; s++)
        if (embedding_pos_forward(table, ids + (size_t)s * n, pe, x + (size_t)s * n * d,
                                  n, v, d))
            return -1;
    return 0;
}

// y = LayerNorm(s), s = xq + Attention(xq, xkv): an attention sub-layer over
// at's rows, keeping q, k, v, the weights and the context in c for backward.
// key_mask (B, tk) or NULL.
static void attn_sublayer(const mha_params_t *p, const layernorm_params_t *ln,
                          att_cache_t *c, const att_call_t *at,
                          const unsigned char *key_mask, float *s, float *y,
                          float *kt) {
    int d = p->d_model, rq = at->b * at->tq, rk = at->b * at->tk;
    project_qkv(p, at->xq, rq, at->xkv, rk, c);
    attend_batch(c, at->b, at->tq, at->tk, d, at->h, key_mask, at->causal, kt);
    attn_out_residual(p, at->xq, c->ctx, s, rq);
    layernorm_forward(s, ln->gamma, ln->beta, y, rq, d, LAYERNORM_EPS);
}

// y = LayerNorm(s), s = x + FFN(x): the FFN sub-layer over rows, keeping the
// hidden activations hid (rows, d_ff) for backward.
static void ffn_sublayer(const ffn_params_t *f, const layernorm_params_t *ln,
                         const float *x, float *hid, float *s, float *y, int rows) {
    ffn_residual(f, x, hid, s, rows);
    layernorm_forward(s, ln->gamma, ln->beta, y, rows, f->d_model, LAYERNORM_EPS);
}

static void encoder_forward(const tf_params_t *p, const tf_config_t *c, tf_work_t *w,
                            const unsigned char *mask) {
    const float *x = w->x_src;
    for (int l = 0; l < c->n_enc; l++) {
        const encoder_block_t *blk = &p->enc[l];
        enc_cache_t *e = &w->enc[l];
        const att_call_t self = {x, x, w->b, w->t, w->t, c->n_heads, 0};
        attn_sublayer(&blk->attn, &blk->norm1, &e->att, &self, mask, e->s1, e->h1,
                      w->kt);
        ffn_sublayer(&blk->ffn, &blk->norm2, e->h1, e->hid, e->s2, e->y, w->b * w->t);
        x = e->y;
    }
}

static const float *enc_out(const tf_config_t *c, const tf_work_t *w) {
    return w->enc[c->n_enc - 1].y;
}

static void decoder_forward(const tf_params_t *p, const tf_config_t *c, tf_work_t *w,
                            const unsigned char *mask) {
    const float *x = w->x_tgt, *enc = enc_out(c, w);
    for (int l = 0; l < c->n_dec; l++) {
        const decoder_block_t *blk = &p->dec[l];
        dec_cache_t *e = &w->dec[l];
        const att_call_t self = {x, x, w->b, w->u, w->u, c->n_heads, 1};
        attn_sublayer(&blk->self_attn, &blk->norm1, &e->self, &self, NULL, e->s1,
                      e->h1, w->kt);
        const att_call_t cross = {e->h1, enc, w->b, w->u, w->t, c->n_heads, 0};
        attn_sublayer(&blk->cross_attn, &blk->norm2, &e->cross, &cross, mask, e->s2,
                      e->h2, w->kt);
        ffn_sublayer(&blk->ffn, &blk->norm3, e->h2, e->hid, e->s3, e->y, w->b * w->u);
        x = e->y;
    }
}

double tf_forward(const tf_params_t *p, const tf_config_t *c, const s2s_batch_t *bt,
                  tf_work_t *w, int *count) {
    *count = 0;
    if (bt->b < 1 || bt->b > c->b_max || bt->t_len < 1 || bt->t_len > c->t_max ||
        bt->u_len < 1 || bt->u_len > c->u_max)
        return -1.0;
    int d = c->d_model, v = c->v_tgt;
    w->b = bt->b, w->t = bt->t_len, w->u = bt->u_len, w->src_mask = bt->src_mask;
    if (embed(p->emb_src, bt->src, w->pe, w->x_src, w->b, w->t, c->v_src, d) ||
        embed(p->emb_tgt, bt->tgt_in, w->pe, w->x_tgt, w->b, w->u, v, d))
        return -1.0;
    encoder_forward(p, c, w, bt->src_mask);
    decoder_forward(p, c, w, bt->src_mask);
    int rt = w->b * w->u;
    tmat_set_rows(w->logits, p->b_out, rt, v);
    tmat_mul_acc(w->dec[c->n_dec - 1].y, p->w_out, w->logits, rt, d, v);
    return xent_forward(w->logits, bt->tgt_out, w->probs, rt, v, S2S_PAD, count);
}

// ---------------------------------------------------------------------------
// backward

// snippet: attn_backward
// Inverts: out = x + ctx W_o + b_o, and the attention and projections before
// it. dout (rq, d) -> dxq (rq, d) += (the residual and the query path),
// dxkv (rk, d) += (the key and value paths), rq = B tq, rk = B tk. dxq may
// equal dxkv (self-attention). at: the sub-layer's inputs and sizes.
static void attn_backward(const mha_params_t *p, mha_params_t *g, const att_cache_t *c,
                          const att_call_t *at, const float *dout, float *dxq,
                          float *dxkv, tf_work_t *w) {
    int d = p->d_model, rq = at->b * at->tq, rk = at->b * at->tk;
    const float *xq = at->xq, *xkv = at->xkv;
    for (size_t i = 0; i < (size_t)rq * d; i++) dxq[i] += dout[i];   // the residual
    // Inverts: the output projection, ctx W_o + b_o
    tmat_sum_rows_acc(dout, g->b_o, rq, d);
    tmat_at_mul_acc(c->ctx, dout, g->w_o, rq, d, d);
    memset(w->dctx, 0, (size_t)rq * d * sizeof(float));
    mul_bt(dout, p->w_o, w->dctx, rq, d, d, w->wt);
    // Inverts: ctx = attention(q, k, v), for every sentence, head and query
    memset(w->dq, 0, (size_t)rq * d * sizeof(float));
    memset(w->dk, 0, (size_t)rk * d * sizeof(float));
    memset(w->dv, 0, (size_t)rk * d * sizeof(float));
    att_cache_t dd = {w->dq, w->dk, w->dv, NULL, w->dctx};
    attend_batch_backward(c, &dd, at, d, w->kt);
    tmat_at_mul_acc(xq, w->dq, g->w_q, rq, d, d);         // Inverts: q = xq W_q
    tmat_at_mul_acc(xkv, w->dk, g->w_k, rk, d, d);        // Inverts: k = xkv W_k
    tmat_at_mul_acc(xkv, w->dv, g->w_v, rk, d, d);        // Inverts: v = xkv W_v
    mul_bt(w->dq, p->w_q, dxq, rq, d, d, w->wt);
    mul_bt(w->dk, p->w_k, dxkv, rk, d, d, w->wt);
    mul_bt(w->dv, p->w_v, dxkv, rk, d, d, w->wt);
}
// end snippet

// snippet: ffn_backward_rows
// Inverts: s = x + ReLU(x W_1 + b_1) W_2 + b_2, given hid = ReLU(x W_1 + b_1).
// ds (rows, d) = dLoss/ds -> dx (rows, d) += dLoss/dx (the residual and the
// network); g's w1, b1, w2, b2 +=.
static void ffn_backward_rows(const ffn_params_t *p, ffn_params_t *g,
                              const float *x, const float *hid, const float *ds,
                              float *dx, int rows, tf_work_t *w) {
    int d = p->d_model, f = p->d_ff;
    for (size_t i = 0; i < (size_t)rows * d; i++) dx[i] += ds[i];    // the residual
    // Inverts: the network's output, hid W_2 + b_2
    tmat_sum_rows_acc(ds, g->b2, rows, d);
    tmat_at_mul_acc(hid, ds, g->w2, rows, f, d);
    memset(w->dhid, 0, (size_t)rows * f * sizeof(float));
    mul_bt(ds, p->w2, w->dhid, rows, f, d, w->wt);
    for (size_t i = 0; i < (size_t)rows * f; i++)
        if (hid[i] <= 0.0f) w->dhid[i] = 0.0f;                      // Inverts: ReLU
    // Inverts: pre = x W_1 + b_1
    tmat_sum_rows_acc(w->dhid, g->b1, rows, f);
    tmat_at_mul_acc(x, w->dhid, g->w1, rows, d, f);
    mul_bt(w->dhid, p->w1, dx, rows, d, f, w->wt);
}
// end snippet

// Inverts: y = LayerNorm(s). dy (rows, d) -> ds (rows, d) = (set, not added).
// ws: layernorm_scratch_doubles(d) doubles.
static int ln_backward(const layernorm_params_t *ln, layernorm_params_t *g,
                       const float *s, const float *dy, float *ds, int rows,
                       double *ws) {
    memset(ds, 0, (size_t)rows * ln->d * sizeof *ds);
    return layernorm_backward_ws(s, ln->gamma, dy, ds, g->gamma, g->beta, rows, ln->d,
                                 LAYERNORM_EPS, ws);
}

// Inverts y = LayerNorm(s), s = x + FFN(x): the FFN sub-layer of a block.
// w->dy (rows, d) = dLoss/dy -> w->dh (rows, d) = dLoss/dx (set, not added);
// w->ds is scratch. hid: the FFN's hidden activations.
static int ffn_sublayer_backward(const layernorm_params_t *ln, layernorm_params_t *gln,
                                 const ffn_params_t *f, ffn_params_t *gf,
                                 const float *x, const float *s, const float *hid,
                                 int rows, tf_work_t *w) {
    int bad = ln_backward(ln, gln, s, w->dy, w->ds, rows, w->ln_ws);
    memset(w->dh, 0, (size_t)rows * f->d_model * sizeof(float));
    ffn_backward_rows(f, gf, x, hid, w->ds, w->dh, rows, w);
    return bad;
}

// Inverts y = LayerNorm(s), s = xq + Attention(xq, xkv): an attention
// sub-layer. w->dh (B tq, d) = dLoss/dy -> dxq (set: zeroed first, after w->dh
// is read) and dxkv (+=; may equal dxq); w->ds is scratch.
static int attn_sublayer_backward(const layernorm_params_t *ln, layernorm_params_t *gln,
                                  const mha_params_t *p, mha_params_t *g,
                                  const att_cache_t *c, const float *s,
                                  const att_call_t *at, float *dxq, float *dxkv,
                                  tf_work_t *w) {
    int rows = at->b * at->tq;
    int bad = ln_backward(ln, gln, s, w->dh, w->ds, rows, w->ln_ws);
    memset(dxq, 0, (size_t)rows * p->d_model * sizeof(float));
    attn_backward(p, g, c, at, w->ds, dxq, dxkv, w);
    return bad;
}

// Inverts one decoder block (input x, encoder output enc): w->dy (B u, d) =
// dLoss/d(its output) -> dLoss/dx; dLoss/d(enc) is added to w->denc.
static int dec_block_backward(const decoder_block_t *blk, decoder_block_t *gb,
                              const dec_cache_t *e, const float *x, const float *enc,
                              int h, tf_work_t *w) {
    int rows = w->b * w->u;
    int bad = ffn_sublayer_backward(&blk->norm3, &gb->norm3, &blk->ffn, &gb->ffn, e->h2,
                                    e->s3, e->hid, rows, w);
    const att_call_t cross = {e->h1, enc, w->b, w->u, w->t, h, 0};
    bad |= attn_sublayer_backward(&blk->norm2, &gb->norm2, &blk->cross_attn,
                                  &gb->cross_attn, &e->cross, e->s2, &cross, w->dh,
                                  w->denc, w);
    const att_call_t self = {x, x, w->b, w->u, w->u, h, 1};
    return bad | attn_sublayer_backward(&blk->norm1, &gb->norm1, &blk->self_attn,
                                        &gb->self_attn, &e->self, e->s1, &self, w->dy,
                                        w->dy, w);
}

// Inverts one encoder block (input x): w->dy (B t, d) = dLoss/d(its output) ->
// dLoss/dx.
static int enc_block_backward(const encoder_block_t *blk, encoder_block_t *gb,
                              const enc_cache_t *e, const float *x, int h,
                              tf_work_t *w) {
    int bad = ffn_sublayer_backward(&blk->norm2, &gb->norm2, &blk->ffn, &gb->ffn, e->h1,
                                    e->s2, e->hid, w->b * w->t, w);
    const att_call_t self = {x, x, w->b, w->t, w->t, h, 0};
    return bad | attn_sublayer_backward(&blk->norm1, &gb->norm1, &blk->attn, &gb->attn,
                                        &e->att, e->s1, &self, w->dy, w->dy, w);
}

int tf_backward(const tf_params_t *p, tf_params_t *g, const tf_config_t *c,
                const s2s_batch_t *bt, tf_work_t *w, float scale) {
    int d = c->d_model, v = c->v_tgt, h = c->n_heads;
    int rs = w->b * w->t, rt = w->b * w->u, bad = 0;
    // the output layer: logits = y W_out + b_out
    memset(w->dlogits, 0, (size_t)rt * v * sizeof(float));
    xent_backward(w->probs, bt->tgt_out, w->dlogits, rt, v, S2S_PAD, scale);
    const float *y_last = w->dec[c->n_dec - 1].y;
    tmat_sum_rows_acc(w->dlogits, g->b_out, rt, v);
    tmat_at_mul_acc(y_last, w->dlogits, g->w_out, rt, d, v);
    memset(w->dy, 0, (size_t)rt * d * sizeof(float));
    mul_bt(w->dlogits, p->w_out, w->dy, rt, d, v, w->wt);
    // the decoder, last block first; dy holds dLoss/d(block output)
    memset(w->denc, 0, (size_t)rs * d * sizeof(float));
    const float *enc = enc_out(c, w);
    for (int l = c->n_dec - 1; l >= 0; l--)
        bad |= dec_block_backward(&p->dec[l], &g->dec[l], &w->dec[l],
                                  l ? w->dec[l - 1].y : w->x_tgt, enc, h, w);
    embedding_pos_backward(bt->tgt_in, w->dy, g->emb_tgt, rt, v, d);
    // the encoder, with dLoss/d(encoder output) summed over the decoder blocks
    memcpy(w->dy, w->denc, (size_t)rs * d * sizeof(float));
    for (int l = c->n_enc - 1; l >= 0; l--)
        bad |= enc_block_backward(&p->enc[l], &g->enc[l], &w->enc[l],
                                  l ? w->enc[l - 1].y : w->x_src, h, w);
    embedding_pos_backward(bt->src, w->dy, g->emb_src, rs, c->v_src, d);
    return bad ? -1 : 0;
}

// ---------------------------------------------------------------------------
// greedy decoding with a key/value cache

// One greedy decode in progress: its sizes, source mask, cross-attention
// record, which rows are done, the step t, and the step buffers (B, d) of
// tf_work_t's step_x: x, q, ctx, s, hh, kk, vv; hid (B, d_ff).
typedef struct {
    const tf_config_t *c;
    tf_work_t *w;
    const unsigned char *src_mask;
    float *cross;
    const int *done;
    int b, t_len, t;
    float *x, *q, *ctx, *s, *hh, *kk, *vv, *hid;
} greedy_t;

// Decoder block l on the newest token of every row (g->x, B rows), in place:
// its key and value appended to the cache, attention over the t + 1 cached
// ones, cross-attention over the cached encoder keys and values, the FFN.
static void greedy_block(const decoder_block_t *blk, int l, const greedy_t *g) {
    const tf_config_t *c = g->c;
    tf_work_t *w = g->w;
    int d = c->d_model, h = c->n_heads, d_k = d / h, um = c->u_max;
    int b = g->b, t_len = g->t_len, t = g->t;
    float *x = g->x, *q = g->q, *ctx = g->ctx, *s = g->s, *hh = g->hh, *kk = g->kk;
    float *vv = g->vv, *cross = g->cross;
    // causal self-attention: append this token's key and value, attend
    // over the t + 1 cached ones
    memset(q, 0, (size_t)3 * b * d * sizeof(float));   // q, ctx, s: zeroed
    memset(kk, 0, (size_t)2 * b * d * sizeof(float));
    tmat_mul_acc(x, blk->self_attn.w_q, q, b, d, d);
    tmat_mul_acc(x, blk->self_attn.w_k, kk, b, d, d);
    tmat_mul_acc(x, blk->self_attn.w_v, vv, b, d, d);
    for (int r = 0; r < b; r++) {
        memcpy(w->ks[l] + ((size_t)r * um + t) * d, kk + (size_t)r * d,
               (size_t)d * sizeof(float));
        memcpy(w->vs[l] + ((size_t)r * um + t) * d, vv + (size_t)r * d,
               (size_t)d * sizeof(float));
        for (int j = 0; j < h; j++)
            attend_row(q + (size_t)r * d + j * d_k,
                       w->ks[l] + (size_t)r * um * d + j * d_k,
                       w->vs[l] + (size_t)r * um * d + j * d_k, d, t + 1, d_k, NULL,
                       w->step_a, ctx + (size_t)r * d + j * d_k);
    }
    attn_out_residual(&blk->self_attn, x, ctx, s, b);
    layernorm_forward(s, blk->norm1.gamma, blk->norm1.beta, hh, b, d, LAYERNORM_EPS);
    // cross-attention over the cached encoder keys and values
    memset(q, 0, (size_t)2 * b * d * sizeof(float));
    tmat_mul_acc(hh, blk->cross_attn.w_q, q, b, d, d);
    for (int r = 0; r < b; r++)
        for (int j = 0; j < h; j++) {
            attend_row(q + (size_t)r * d + j * d_k,
                       w->kc[l] + (size_t)r * t_len * d + j * d_k,
                       w->vc[l] + (size_t)r * t_len * d + j * d_k, d, t_len, d_k,
                       g->src_mask + (size_t)r * t_len, w->step_a,
                       ctx + (size_t)r * d + j * d_k);
            if (cross && !g->done[r])
                memcpy(cross + ((((size_t)r * c->n_dec + l) * h + j) * um + t) * t_len,
                       w->step_a, (size_t)t_len * sizeof(float));
        }
    attn_out_residual(&blk->cross_attn, hh, ctx, s, b);
    layernorm_forward(s, blk->norm2.gamma, blk->norm2.beta, hh, b, d, LAYERNORM_EPS);
    ffn_residual(&blk->ffn, hh, g->hid, s, b);
    layernorm_forward(s, blk->norm3.gamma, blk->norm3.beta, x, b, d, LAYERNORM_EPS);
}

// The cross-attention's keys and values of every decoder block, once per
// source: kc[l], vc[l] (B T, d) = enc W_k, enc W_v.
static void greedy_cross_kv(const tf_params_t *p, const tf_config_t *c, tf_work_t *w,
                            const float *enc, int rs) {
    int d = c->d_model;
    for (int l = 0; l < c->n_dec; l++) {
        const mha_params_t *ca = &p->dec[l].cross_attn;
        memset(w->kc[l], 0, (size_t)rs * d * sizeof(float));
        memset(w->vc[l], 0, (size_t)rs * d * sizeof(float));
        tmat_mul_acc(enc, ca->w_k, w->kc[l], rs, d, d);
        tmat_mul_acc(enc, ca->w_v, w->vc[l], rs, d, d);
    }
}

int tf_greedy(const tf_params_t *p, const tf_config_t *c, const int *src,
              const unsigned char *src_mask, int b, int t_len, int *out, float *logits,
              float *cross, tf_work_t *w) {
    if (b < 1 || b > c->b_max || t_len < 1 || t_len > c->t_max) return -1;
    int d = c->d_model, h = c->n_heads, v = c->v_tgt, um = c->u_max;
    w->b = b, w->t = t_len, w->u = 1;
    if (embed(p->emb_src, src, w->pe, w->x_src, b, t_len, c->v_src, d)) return -1;
    encoder_forward(p, c, w, src_mask);
    greedy_cross_kv(p, c, w, enc_out(c, w), b * t_len);
    int prev[b], done[b], n_done = 0;
    greedy_t g = {.c = c, .w = w, .src_mask = src_mask, .cross = cross, .done = done,
                  .b = b, .t_len = t_len, .x = w->step_x};
    g.q = g.x + b * d, g.ctx = g.q + b * d, g.s = g.ctx + b * d, g.hh = g.s + b * d;
    g.kk = g.hh + b * d, g.vv = g.kk + b * d;
    float *lg = g.vv + b * d;
    g.hid = lg + (size_t)b * v;
    for (int r = 0; r < b; r++) prev[r] = S2S_BOS, done[r] = 0;
    for (size_t i = 0; i < (size_t)b * um; i++) out[i] = S2S_PAD;
    if (logits) memset(logits, 0, (size_t)b * um * v * sizeof(float));
    if (cross) memset(cross, 0, (size_t)b * c->n_dec * h * um * t_len * sizeof(float));
    for (int t = 0; t < um && n_done < b; t++) {
        g.t = t;
        for (int r = 0; r < b; r++)   // the newest token, embedded at position t
            embedding_pos_forward(p->emb_tgt, &prev[r], w->pe + (size_t)t * d,
                                  g.x + (size_t)r * d, 1, v, d);
        for (int l = 0; l < c->n_dec; l++) greedy_block(&p->dec[l], l, &g);
        tmat_set_rows(lg, p->b_out, b, v);
        tmat_mul_acc(g.x, p->w_out, lg, b, d, v);
        for (int r = 0; r < b; r++) {
            if (done[r]) continue;
            const float *z = lg + (size_t)r * v;
            int best = 0;
            for (int j = 1; j < v; j++)
                if (z[j] > z[best]) best = j;
            out[(size_t)r * um + t] = best;
            if (logits)
                memcpy(logits + ((size_t)r * um + t) * v, z, (size_t)v * sizeof *z);
            prev[r] = best;
            if (best == S2S_EOS) done[r] = 1, n_done++;
        }
    }
    return 0;
}

double tf_model_forward(void *model, const void *batch, int *count) {
    tf_model_t *m = model;
    return tf_forward(&m->p, &m->cfg, batch, m->work, count);
}

int tf_model_backward(void *model, const void *batch, float scale) {
    tf_model_t *m = model;
    return tf_backward(&m->p, &m->g, &m->cfg, batch, m->work, scale);
}
