// block_train.c -- the encoder and decoder blocks with their activations kept,
// and their backward passes.
#include "layers/block_train.h"

#include <stdlib.h>
#include <string.h>

// r (size) += a (size)
static void add_into(float *r, const float *a, size_t size) {
    for (size_t i = 0; i < size; i++) r[i] += a[i];
}

// ---------------------------------------------------------------------------
// parameters as tensors

static int put_mha(const mha_params_t *p, float **ptr, size_t *len) {
    size_t dd = (size_t)p->d_model * p->d_model;
    float *a[] = {p->w_q, p->w_k, p->w_v, p->w_o, p->b_o};
    for (int k = 0; k < 5; k++) {
        ptr[k] = a[k];
        len[k] = k < 4 ? dd : (size_t)p->d_model;
    }
    return 5;
}

static int put_ffn(const ffn_params_t *p, float **ptr, size_t *len) {
    size_t df = (size_t)p->d_model * p->d_ff;
    ptr[0] = p->w1, len[0] = df;
    ptr[1] = p->b1, len[1] = (size_t)p->d_ff;
    ptr[2] = p->w2, len[2] = df;
    ptr[3] = p->b2, len[3] = (size_t)p->d_model;
    return 4;
}

static int put_ln(const layernorm_params_t *p, float **ptr, size_t *len) {
    ptr[0] = p->gamma, len[0] = (size_t)p->d;
    ptr[1] = p->beta, len[1] = (size_t)p->d;
    return 2;
}

int blk_encoder_tensors(const encoder_block_t *b, float **ptr, size_t *len) {
    int k = put_mha(&b->attn, ptr, len);
    k += put_ln(&b->norm1, ptr + k, len + k);
    k += put_ffn(&b->ffn, ptr + k, len + k);
    k += put_ln(&b->norm2, ptr + k, len + k);
    return k;
}

int blk_decoder_tensors(const decoder_block_t *b, float **ptr, size_t *len) {
    int k = put_mha(&b->self_attn, ptr, len);
    k += put_ln(&b->norm1, ptr + k, len + k);
    k += put_mha(&b->cross_attn, ptr + k, len + k);
    k += put_ln(&b->norm2, ptr + k, len + k);
    k += put_ffn(&b->ffn, ptr + k, len + k);
    k += put_ln(&b->norm3, ptr + k, len + k);
    return k;
}

void blk_encoder_zero(encoder_block_t *g) {
    float *ptr[BLK_ENCODER_TENSORS];
    size_t len[BLK_ENCODER_TENSORS];
    int count = blk_encoder_tensors(g, ptr, len);
    for (int k = 0; k < count; k++) memset(ptr[k], 0, len[k] * sizeof(float));
}

void blk_decoder_zero(decoder_block_t *g) {
    float *ptr[BLK_DECODER_TENSORS];
    size_t len[BLK_DECODER_TENSORS];
    int count = blk_decoder_tensors(g, ptr, len);
    for (int k = 0; k < count; k++) memset(ptr[k], 0, len[k] * sizeof(float));
}

// ---------------------------------------------------------------------------
// encoder block

size_t blk_encoder_cache_floats(const encoder_block_t *b, int n) {
    if (n < 1) return 0;
    size_t nd = (size_t)n * b->attn.d_model;
    return mha_cache_floats(&b->attn, n, n) + 3 * nd + (size_t)n * b->ffn.d_ff;
}

void blk_encoder_cache_bind(blk_encoder_cache_t *c, float *buf,
                            const encoder_block_t *b, int n) {
    size_t nd = (size_t)n * b->attn.d_model;
    mha_cache_bind(&c->attn, buf, &b->attn, n, n);
    c->s1 = buf + mha_cache_floats(&b->attn, n, n);
    c->h1 = c->s1 + nd;
    c->hidden = c->h1 + nd;
    c->s2 = c->hidden + (size_t)n * b->ffn.d_ff;
}

int blk_encoder_forward(const encoder_block_t *b, const float *x, int n,
                        const unsigned char *mask, blk_encoder_cache_t *c, float *y) {
    if (n < 1) return -1;
    int d = b->attn.d_model;
    size_t nd = (size_t)n * d;
    if (mha_forward_cache(&b->attn, x, n, x, n, mask, &c->attn, c->s1) != 0) return -1;
    add_into(c->s1, x, nd);   // s1 = x + MultiHead(x, x, x)
    layernorm_forward(c->s1, b->norm1.gamma, b->norm1.beta, c->h1, n, d, LAYERNORM_EPS);
    ffn_forward(&b->ffn, c->h1, c->hidden, c->s2, n);
    add_into(c->s2, c->h1, nd);   // s2 = h1 + FFN(h1)
    layernorm_forward(c->s2, b->norm2.gamma, b->norm2.beta, y, n, d, LAYERNORM_EPS);
    return 0;
}

// The last two steps of a block, backwards: from dy, where
//   h = LayerNorm(s_in) with norm[0],  s_out = h + FFN(h),  y = LayerNorm(s_out)
// with norm[1]; act = {s_in, h, hidden, s_out} from the cache. Accumulates (+=)
// into the gradients gnorm[0..1] and gf, and sets ws (n, d) to dLoss/ds_in; ws
// has 2 n d + n d_ff floats (the rest is scratch). Returns 0, -1 on bad sizes.
static int ffn_tail_backward(const ffn_params_t *f, ffn_params_t *gf,
                             const layernorm_params_t *const norm[2],
                             layernorm_params_t *const gnorm[2],
                             const float *const act[4], const float *dy, float *ws,
                             int n) {
    int d = f->d_model;
    size_t nd = (size_t)n * d;
    float *ds = ws, *dh = ds + nd, *scratch = dh + nd;
    int rc = layernorm_backward(act[3], norm[1]->gamma, dy, ds, gnorm[1]->gamma,
                                gnorm[1]->beta, n, d, LAYERNORM_EPS);
    // s_out = h + FFN(h)  =>  dh = ds_out + FFN'(h)^T ds_out
    memcpy(dh, ds, nd * sizeof(float));
    ffn_backward(f, gf, act[1], act[2], ds, dh, n, scratch);
    memset(ds, 0, nd * sizeof(float));
    rc |= layernorm_backward(act[0], norm[0]->gamma, dh, ds, gnorm[0]->gamma,
                             gnorm[0]->beta, n, d, LAYERNORM_EPS);
    return rc ? -1 : 0;
}

int blk_encoder_backward(const encoder_block_t *b, encoder_block_t *g, const float *x,
                         int n, const blk_encoder_cache_t *c, const float *dy,
                         float *dx) {
    if (n < 1) return -1;
    int d = b->attn.d_model;
    size_t nd = (size_t)n * d;
    float *ws = calloc(2 * nd + (size_t)n * b->ffn.d_ff, sizeof(float));
    if (!ws) return -1;
    float *ds = ws;
    // forward: h1 = LayerNorm(s1), s2 = h1 + FFN(h1), y = LayerNorm(s2)  =>  ds1
    const layernorm_params_t *norm[2] = {&b->norm1, &b->norm2};
    layernorm_params_t *gnorm[2] = {&g->norm1, &g->norm2};
    const float *act[4] = {c->s1, c->h1, c->hidden, c->s2};
    int rc = ffn_tail_backward(&b->ffn, &g->ffn, norm, gnorm, act, dy, ws, n);
    // forward: s1 = x + MultiHead(x, x, x)  =>  dx = ds1 + (x's three shares)
    if (dx) add_into(dx, ds, nd);
    rc |= mha_backward(&b->attn, &g->attn, x, n, x, n, &c->attn, ds, dx, dx);
    free(ws);
    return rc ? -1 : 0;
}

// ---------------------------------------------------------------------------
// decoder block

size_t blk_decoder_cache_floats(const decoder_block_t *b, int n, int m) {
    if (n < 1 || m < 1) return 0;
    size_t nd = (size_t)n * b->self_attn.d_model;
    return mha_cache_floats(&b->self_attn, n, n) +
           mha_cache_floats(&b->cross_attn, n, m) + 5 * nd + (size_t)n * b->ffn.d_ff;
}

void blk_decoder_cache_bind(blk_decoder_cache_t *c, float *buf,
                            const decoder_block_t *b, int n, int m) {
    size_t nd = (size_t)n * b->self_attn.d_model;
    mha_cache_bind(&c->self_attn, buf, &b->self_attn, n, n);
    c->s1 = buf + mha_cache_floats(&b->self_attn, n, n);
    c->h1 = c->s1 + nd;
    mha_cache_bind(&c->cross_attn, c->h1 + nd, &b->cross_attn, n, m);
    c->s2 = c->h1 + nd + mha_cache_floats(&b->cross_attn, n, m);
    c->h2 = c->s2 + nd;
    c->hidden = c->h2 + nd;
    c->s3 = c->hidden + (size_t)n * b->ffn.d_ff;
}

int blk_decoder_forward(const decoder_block_t *b, const float *x, int n,
                        const float *enc, int m, const unsigned char *self_mask,
                        const unsigned char *cross_mask, blk_decoder_cache_t *c,
                        float *y) {
    if (n < 1 || m < 1) return -1;
    int d = b->self_attn.d_model;
    size_t nd = (size_t)n * d;
    unsigned char *causal = malloc((size_t)n * n);
    if (!causal) return -1;
    // Token i may look at tokens j <= i only (and not at hidden ones).
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            causal[i * n + j] = j <= i && (!self_mask || self_mask[i * n + j]);
    int rc = mha_forward_cache(&b->self_attn, x, n, x, n, causal, &c->self_attn, c->s1);
    free(causal);
    if (rc != 0) return -1;
    add_into(c->s1, x, nd);   // s1 = x + MultiHead(x, x, x)
    layernorm_forward(c->s1, b->norm1.gamma, b->norm1.beta, c->h1, n, d, LAYERNORM_EPS);
    if (mha_forward_cache(&b->cross_attn, c->h1, n, enc, m, cross_mask, &c->cross_attn,
                          c->s2) != 0)
        return -1;
    add_into(c->s2, c->h1, nd);   // s2 = h1 + MultiHead(h1, enc, enc)
    layernorm_forward(c->s2, b->norm2.gamma, b->norm2.beta, c->h2, n, d, LAYERNORM_EPS);
    ffn_forward(&b->ffn, c->h2, c->hidden, c->s3, n);
    add_into(c->s3, c->h2, nd);   // s3 = h2 + FFN(h2)
    layernorm_forward(c->s3, b->norm3.gamma, b->norm3.beta, y, n, d, LAYERNORM_EPS);
    return 0;
}

int blk_decoder_backward(const decoder_block_t *b, decoder_block_t *g, const float *x,
                         int n, const float *enc, int m, const blk_decoder_cache_t *c,
                         const float *dy, float *dx, float *denc) {
    if (n < 1 || m < 1) return -1;
    int d = b->self_attn.d_model;
    size_t nd = (size_t)n * d;
    float *ws = calloc(2 * nd + (size_t)n * b->ffn.d_ff, sizeof(float));
    if (!ws) return -1;
    float *ds = ws, *dh = ds + nd;
    // forward: h2 = LayerNorm(s2), s3 = h2 + FFN(h2), y = LayerNorm(s3)  =>  ds2
    const layernorm_params_t *norm[2] = {&b->norm2, &b->norm3};
    layernorm_params_t *gnorm[2] = {&g->norm2, &g->norm3};
    const float *act[4] = {c->s2, c->h2, c->hidden, c->s3};
    int rc = ffn_tail_backward(&b->ffn, &g->ffn, norm, gnorm, act, dy, ws, n);
    // forward: s2 = h1 + MultiHead(h1, enc, enc)  =>  dh1 = ds2 + (queries' share),
    //          denc += (keys' and values' share)
    memcpy(dh, ds, nd * sizeof(float));
    rc |= mha_backward(&b->cross_attn, &g->cross_attn, c->h1, n, enc, m, &c->cross_attn,
                       ds, dh, denc);
    // forward: h1 = LayerNorm(s1) with norm1
    memset(ds, 0, nd * sizeof(float));
    rc |= layernorm_backward(c->s1, b->norm1.gamma, dh, ds, g->norm1.gamma,
                             g->norm1.beta, n, d, LAYERNORM_EPS);
    // forward: s1 = x + MultiHead(x, x, x; causal)  =>  dx = ds1 + (x's three shares)
    if (dx) add_into(dx, ds, nd);
    rc |= mha_backward(&b->self_attn, &g->self_attn, x, n, x, n, &c->self_attn, ds, dx,
                       dx);
    free(ws);
    return rc ? -1 : 0;
}
