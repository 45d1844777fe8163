// test_block_train.c -- the training encoder and decoder blocks: their forwards equal
// block.h's bit for bit, and every parameter and input gradient of their backwards
// matches central finite differences of L = sum(r * y), r random (so dL/dy = r).
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "layers/block.h"
#include "layers/block_train.h"
#include "helpers.h"

enum { N = 3, M = 4, D = 8, H = 2, DFF = 16 };

// The finite-difference check of helpers.h with a step of 1e-3, not 1e-2: a whole
// block has 48 ReLU units whose kinks a step of 1e-2 crosses too often
// (differences then off by ~5%).
static void check_grad(const char *what, float *x, const float *g, int size,
                       loss_fn loss, void *ctx) {
    check_grad_eps(what, x, g, size, loss, ctx, 1e-3f);
}

// Random weights everywhere, including the biases and the layer norms (which
// start at 1 and 0), so that no gradient is checked at a special point.
static void randomize_mha(mha_params_t *p, rng_t *rng) {
    mha_init(p, rng);
    rng_fill_normal(rng, p->b_o, p->d_model, 0, 0.3f);
}
static void randomize_ffn(ffn_params_t *p, rng_t *rng) {
    ffn_init(p, rng);
    rng_fill_normal(rng, p->b1, p->d_ff, 0, 0.3f);
    rng_fill_normal(rng, p->b2, p->d_model, 0, 0.3f);
}
static void randomize_ln(layernorm_params_t *p, rng_t *rng) {
    rng_fill_normal(rng, p->gamma, p->d, 1, 0.3f);
    rng_fill_normal(rng, p->beta, p->d, 0, 0.3f);
}

static void check_mha(const char *what, mha_params_t *p, const mha_params_t *g,
                      loss_fn loss, void *ctx) {
    char name[64];
    int dd = p->d_model * p->d_model;
    float *pw[] = {p->w_q, p->w_k, p->w_v, p->w_o},
          *gw[] = {g->w_q, g->w_k, g->w_v, g->w_o};
    const char *wn[] = {"w_q", "w_k", "w_v", "w_o"};
    for (int k = 0; k < 4; k++) {
        snprintf(name, sizeof name, "%s.%s", what, wn[k]);
        check_grad(name, pw[k], gw[k], dd, loss, ctx);
    }
    snprintf(name, sizeof name, "%s.b_o", what);
    check_grad(name, p->b_o, g->b_o, p->d_model, loss, ctx);
}
static void check_ffn(ffn_params_t *p, const ffn_params_t *g, loss_fn loss, void *ctx) {
    check_grad("ffn.w1", p->w1, g->w1, p->d_model * p->d_ff, loss, ctx);
    check_grad("ffn.b1", p->b1, g->b1, p->d_ff, loss, ctx);
    check_grad("ffn.w2", p->w2, g->w2, p->d_ff * p->d_model, loss, ctx);
    check_grad("ffn.b2", p->b2, g->b2, p->d_model, loss, ctx);
}
static void check_ln(const char *what, layernorm_params_t *p,
                     const layernorm_params_t *g, loss_fn loss, void *ctx) {
    char name[64];
    snprintf(name, sizeof name, "%s.gamma", what);
    check_grad(name, p->gamma, g->gamma, p->d, loss, ctx);
    snprintf(name, sizeof name, "%s.beta", what);
    check_grad(name, p->beta, g->beta, p->d, loss, ctx);
}

// --- encoder --------------------------------------------------------------------

typedef struct {
    encoder_block_t b;
    float x[N * D], r[N * D];
    unsigned char mask[N * N];
    const unsigned char *m;
} enc_ctx;

static double enc_loss(void *p) {
    enc_ctx *c = p;
    float y[N * D];
    cr_assert_eq(encoder_block_forward(&c->b, c->x, N, c->m, y, NULL), 0);
    return dot_r(c->r, y, N * D);
}

static void enc_setup(enc_ctx *c, int masked, uint64_t seed) {
    cr_assert_eq(encoder_block_alloc(&c->b, D, H, DFF), 0);
    rng_t rng;
    rng_seed(&rng, seed);
    randomize_mha(&c->b.attn, &rng);
    randomize_ln(&c->b.norm1, &rng);
    randomize_ffn(&c->b.ffn, &rng);
    randomize_ln(&c->b.norm2, &rng);
    rng_fill_normal(&rng, c->x, N * D, 0, 1);
    rng_fill_normal(&rng, c->r, N * D, 0, 1);
    for (int i = 0; i < N * N; i++)
        c->mask[i] = (i % N) != N - 1;   // last token: padding
    c->m = masked ? c->mask : NULL;
}

static void enc_case(int masked) {
    enc_ctx c;
    enc_setup(&c, masked, 91 + (uint64_t)masked);
    encoder_block_t g;
    cr_assert_eq(encoder_block_alloc(&g, D, H, DFF), 0);
    blk_encoder_zero(&g);   // a gradient container starts at 0
    float *buf = calloc(blk_encoder_cache_floats(&c.b, N), sizeof(float));
    cr_assert_not_null(buf);
    blk_encoder_cache_t cache;
    blk_encoder_cache_bind(&cache, buf, &c.b, N);
    float y[N * D], plain[N * D], dx[N * D] = {0};
    cr_assert_eq(blk_encoder_forward(&c.b, c.x, N, c.m, &cache, y), 0);
    cr_assert_eq(encoder_block_forward(&c.b, c.x, N, c.m, plain, NULL), 0);
    cr_assert_eq(memcmp(y, plain, sizeof y), 0,
                 "training forward differs from block.h's");
    cr_assert_eq(blk_encoder_backward(&c.b, &g, c.x, N, &cache, c.r, dx), 0);
    check_grad("dx", c.x, dx, N * D, enc_loss, &c);
    check_mha("attn", &c.b.attn, &g.attn, enc_loss, &c);
    check_ln("norm1", &c.b.norm1, &g.norm1, enc_loss, &c);
    check_ffn(&c.b.ffn, &g.ffn, enc_loss, &c);
    check_ln("norm2", &c.b.norm2, &g.norm2, enc_loss, &c);
    free(buf);
    encoder_block_free(&c.b);
    encoder_block_free(&g);
}

Test(block_train, encoder_backward_matches_finite_differences) {
    enc_case(0);
}
Test(block_train, encoder_backward_with_padding_mask_matches_finite_differences) {
    enc_case(1);
}

// --- decoder --------------------------------------------------------------------

typedef struct {
    decoder_block_t b;
    float x[N * D], enc[M * D], r[N * D];
    unsigned char self_mask[N * N], cross_mask[N * M];
    const unsigned char *sm, *cm;
} dec_ctx;

static double dec_loss(void *p) {
    dec_ctx *c = p;
    float y[N * D];
    cr_assert_eq(
        decoder_block_forward(&c->b, c->x, N, c->enc, M, c->sm, c->cm, y, NULL, NULL),
        0);
    return dot_r(c->r, y, N * D);
}

static void dec_setup(dec_ctx *c, int masked, uint64_t seed) {
    cr_assert_eq(decoder_block_alloc(&c->b, D, H, DFF), 0);
    rng_t rng;
    rng_seed(&rng, seed);
    randomize_mha(&c->b.self_attn, &rng);
    randomize_ln(&c->b.norm1, &rng);
    randomize_mha(&c->b.cross_attn, &rng);
    randomize_ln(&c->b.norm2, &rng);
    randomize_ffn(&c->b.ffn, &rng);
    randomize_ln(&c->b.norm3, &rng);
    rng_fill_normal(&rng, c->x, N * D, 0, 1);
    rng_fill_normal(&rng, c->enc, M * D, 0, 1);
    rng_fill_normal(&rng, c->r, N * D, 0, 1);
    // target padding: the last target token is hidden from the others (it still
    // sees itself); source padding: the last encoder token is hidden from all
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) c->self_mask[i * N + j] = j != N - 1 || i == j;
    for (int i = 0; i < N * M; i++) c->cross_mask[i] = (i % M) != M - 1;
    c->sm = masked ? c->self_mask : NULL;
    c->cm = masked ? c->cross_mask : NULL;
}

static void dec_case(int masked) {
    dec_ctx c;
    dec_setup(&c, masked, 57 + (uint64_t)masked);
    decoder_block_t g;
    cr_assert_eq(decoder_block_alloc(&g, D, H, DFF), 0);
    blk_decoder_zero(&g);
    float *buf = calloc(blk_decoder_cache_floats(&c.b, N, M), sizeof(float));
    cr_assert_not_null(buf);
    blk_decoder_cache_t cache;
    blk_decoder_cache_bind(&cache, buf, &c.b, N, M);
    float y[N * D], plain[N * D], dx[N * D] = {0}, denc[M * D] = {0};
    cr_assert_eq(blk_decoder_forward(&c.b, c.x, N, c.enc, M, c.sm, c.cm, &cache, y), 0);
    cr_assert_eq(
        decoder_block_forward(&c.b, c.x, N, c.enc, M, c.sm, c.cm, plain, NULL, NULL),
        0);
    cr_assert_eq(memcmp(y, plain, sizeof y), 0,
                 "training forward differs from block.h's");
    cr_assert_eq(
        blk_decoder_backward(&c.b, &g, c.x, N, c.enc, M, &cache, c.r, dx, denc), 0);
    check_grad("dx", c.x, dx, N * D, dec_loss, &c);
    check_grad("denc", c.enc, denc, M * D, dec_loss, &c);
    if (masked)   // a hidden source token gets no gradient at all
        for (int k = 0; k < D; k++) cr_assert_eq(denc[(M - 1) * D + k], 0.0f);
    check_mha("self_attn", &c.b.self_attn, &g.self_attn, dec_loss, &c);
    check_ln("norm1", &c.b.norm1, &g.norm1, dec_loss, &c);
    check_mha("cross_attn", &c.b.cross_attn, &g.cross_attn, dec_loss, &c);
    check_ln("norm2", &c.b.norm2, &g.norm2, dec_loss, &c);
    check_ffn(&c.b.ffn, &g.ffn, dec_loss, &c);
    check_ln("norm3", &c.b.norm3, &g.norm3, dec_loss, &c);
    free(buf);
    decoder_block_free(&c.b);
    decoder_block_free(&g);
}

Test(block_train, decoder_backward_matches_finite_differences) {
    dec_case(0);
}
Test(block_train, decoder_backward_with_padding_masks_matches_finite_differences) {
    dec_case(1);
}

// --- accumulation and degenerate sizes -------------------------------------------

// Backward passes from one forward accumulate: three passes give three times
// one pass's gradient, up to rounding.
Test(block_train, decoder_backward_accumulates) {
    dec_ctx c;
    dec_setup(&c, 1, 5);
    decoder_block_t g;
    cr_assert_eq(decoder_block_alloc(&g, D, H, DFF), 0);
    blk_decoder_zero(&g);
    float *buf = calloc(blk_decoder_cache_floats(&c.b, N, M), sizeof(float));
    blk_decoder_cache_t cache;
    blk_decoder_cache_bind(&cache, buf, &c.b, N, M);
    float y[N * D], dx1[N * D] = {0}, denc1[M * D] = {0}, dx2[N * D] = {0},
                            denc2[M * D] = {0}, w1[D * D];
    cr_assert_eq(blk_decoder_forward(&c.b, c.x, N, c.enc, M, c.sm, c.cm, &cache, y), 0);
    cr_assert_eq(
        blk_decoder_backward(&c.b, &g, c.x, N, c.enc, M, &cache, c.r, dx1, denc1), 0);
    memcpy(w1, g.cross_attn.w_k, sizeof w1);
    cr_assert_eq(
        blk_decoder_backward(&c.b, &g, c.x, N, c.enc, M, &cache, c.r, dx2, denc2), 0);
    cr_assert_eq(
        blk_decoder_backward(&c.b, &g, c.x, N, c.enc, M, &cache, c.r, dx2, NULL),
        0);   // NULL: denc not wanted
    for (int i = 0; i < D * D; i++)
        cr_assert_float_eq(g.cross_attn.w_k[i], 3.0f * w1[i],
                           1e-5f * (1 + fabsf(w1[i])));
    for (int i = 0; i < N * D; i++)
        cr_assert_float_eq(dx2[i], 2.0f * dx1[i], 1e-5f * (1 + fabsf(dx1[i])));
    for (int i = 0; i < M * D; i++) cr_assert_eq(denc2[i], denc1[i]);
    free(buf);
    decoder_block_free(&c.b);
    decoder_block_free(&g);
}

Test(block_train, empty_sequences_are_refused) {
    enc_ctx e;
    enc_setup(&e, 0, 1);
    dec_ctx c;
    dec_setup(&c, 0, 2);
    cr_assert_eq(blk_encoder_cache_floats(&e.b, 0), 0);
    cr_assert_eq(blk_decoder_cache_floats(&c.b, 0, M), 0);
    cr_assert_eq(blk_decoder_cache_floats(&c.b, N, 0), 0);
    blk_encoder_cache_t ec;
    blk_decoder_cache_t dc;
    float y[N * D];
    cr_assert_eq(blk_encoder_forward(&e.b, e.x, 0, NULL, &ec, y), -1);
    cr_assert_eq(blk_encoder_backward(&e.b, &e.b, e.x, 0, &ec, y, NULL), -1);
    cr_assert_eq(blk_decoder_forward(&c.b, c.x, N, c.enc, 0, NULL, NULL, &dc, y), -1);
    cr_assert_eq(blk_decoder_backward(&c.b, &c.b, c.x, 0, c.enc, M, &dc, y, NULL, NULL),
                 -1);
    encoder_block_free(&e.b);
    decoder_block_free(&c.b);
}

// The tensor lists cover every parameter once: their lengths add up to the
// parameter count, they follow the struct's fields, and zeroing clears them all.
Test(block_train, tensor_lists_cover_every_parameter) {
    enc_ctx e;
    enc_setup(&e, 0, 3);
    dec_ctx c;
    dec_setup(&c, 0, 4);
    float *ptr[BLK_DECODER_TENSORS];
    size_t len[BLK_DECODER_TENSORS], total = 0;
    cr_assert_eq(blk_encoder_tensors(&e.b, ptr, len), BLK_ENCODER_TENSORS);
    for (int k = 0; k < BLK_ENCODER_TENSORS; k++) total += len[k];
    cr_assert_eq((long)total, encoder_block_param_count(&e.b));
    cr_assert_eq(ptr[0], e.b.attn.w_q);
    cr_assert_eq(ptr[6], e.b.norm1.beta);
    cr_assert_eq(ptr[12], e.b.norm2.beta);
    blk_encoder_zero(&e.b);
    for (int k = 0; k < BLK_ENCODER_TENSORS; k++)
        for (size_t i = 0; i < len[k]; i++) cr_assert_eq(ptr[k][i], 0.0f);
    total = 0;
    cr_assert_eq(blk_decoder_tensors(&c.b, ptr, len), BLK_DECODER_TENSORS);
    for (int k = 0; k < BLK_DECODER_TENSORS; k++) total += len[k];
    cr_assert_eq((long)total, decoder_block_param_count(&c.b));
    cr_assert_eq(ptr[7], c.b.cross_attn.w_q);
    cr_assert_eq(ptr[14], c.b.ffn.w1);
    cr_assert_eq(ptr[19], c.b.norm3.beta);
    blk_decoder_zero(&c.b);
    for (int k = 0; k < BLK_DECODER_TENSORS; k++)
        for (size_t i = 0; i < len[k]; i++) cr_assert_eq(ptr[k][i], 0.0f);
    encoder_block_free(&e.b);
    decoder_block_free(&c.b);
}
