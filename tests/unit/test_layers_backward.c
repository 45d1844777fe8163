// test_layers_backward.c -- every backward pass of chapter 4's layers against
// central finite differences of a scalar loss L = sum(r * out), r random, so
// that dL/dout = r.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "base/rng.h"
#include "layers/ffn.h"
#include "layers/layernorm.h"
#include "layers/multihead.h"
#include "helpers.h"

// The finite-difference check of helpers.h with a step of 1e-2.
static void check_grad(const char *what, float *x, const float *g, int size,
                       loss_fn loss, void *ctx) {
    check_grad_eps(what, x, g, size, loss, ctx, 1e-2f);
}

// --- attention ------------------------------------------------------------------

enum { AN = 4, AM = 5, ADK = 3, ADV = 2 };
typedef struct {
    float q[AN * ADK], k[AM * ADK], v[AM * ADV], r[AN * ADV];
    unsigned char mask[AN * AM];
    const unsigned char *m;
} att_ctx;

static double att_loss(void *p) {
    att_ctx *c = p;
    float out[AN * ADV], w[AN * AM];
    attention_forward(c->q, c->k, c->v, c->m, out, w, AN, AM, ADK, ADV);
    return dot_r(c->r, out, AN * ADV);
}

static void att_case(int masked) {
    att_ctx c;
    rng_t rng;
    rng_seed(&rng, 7 + (uint64_t)masked);
    rng_fill_normal(&rng, c.q, AN * ADK, 0, 1);
    rng_fill_normal(&rng, c.k, AM * ADK, 0, 1);
    rng_fill_normal(&rng, c.v, AM * ADV, 0, 1);
    rng_fill_normal(&rng, c.r, AN * ADV, 0, 1);
    for (int i = 0; i < AN * AM; i++) c.mask[i] = (i % 3) != 0;
    for (int j = 0; j < AM; j++) c.mask[2 * AM + j] = 0;   // row 2 fully hidden
    c.m = masked ? c.mask : NULL;
    float out[AN * ADV], w[AN * AM], scratch[AN * AM];
    float dq[AN * ADK] = {0}, dk[AM * ADK] = {0}, dv[AM * ADV] = {0};
    attention_forward(c.q, c.k, c.v, c.m, out, w, AN, AM, ADK, ADV);
    const attn_saved_t fw = {c.q, c.k, c.v, w};
    attention_backward(&fw, c.r, dq, dk, dv, AN, AM, ADK, ADV, scratch);
    check_grad("dq", c.q, dq, AN * ADK, att_loss, &c);
    check_grad("dk", c.k, dk, AM * ADK, att_loss, &c);
    check_grad("dv", c.v, dv, AM * ADV, att_loss, &c);
    if (masked)
        for (int c2 = 0; c2 < ADK; c2++) cr_assert_eq(dq[2 * ADK + c2], 0.0f);
}

Test(attention, backward_matches_finite_differences) { att_case(0); }
Test(attention, backward_with_mask_and_a_fully_hidden_row) { att_case(1); }

// --- layer norm -----------------------------------------------------------------

enum { LN = 3, LD = 6 };
typedef struct { float x[LN * LD], gamma[LD], beta[LD], r[LN * LD]; } ln_ctx;

static double ln_loss(void *p) {
    ln_ctx *c = p;
    float y[LN * LD];
    layernorm_forward(c->x, c->gamma, c->beta, y, LN, LD, 1e-5f);
    return dot_r(c->r, y, LN * LD);
}

Test(layernorm, backward_matches_finite_differences) {
    ln_ctx c;
    rng_t rng;
    rng_seed(&rng, 21);
    rng_fill_normal(&rng, c.x, LN * LD, 0.5f, 2.0f);
    rng_fill_normal(&rng, c.gamma, LD, 1, 0.3f);
    rng_fill_normal(&rng, c.beta, LD, 0, 0.3f);
    rng_fill_normal(&rng, c.r, LN * LD, 0, 1);
    float dx[LN * LD] = {0}, dg[LD] = {0}, db[LD] = {0};
    cr_assert_eq(layernorm_backward(c.x, c.gamma, c.r, dx, dg, db, LN, LD, 1e-5f), 0);
    check_grad("dx", c.x, dx, LN * LD, ln_loss, &c);
    check_grad("dgamma", c.gamma, dg, LD, ln_loss, &c);
    check_grad("dbeta", c.beta, db, LD, ln_loss, &c);
}

// --- feed-forward ---------------------------------------------------------------

enum { FN_ = 3, FD = 4, FF = 7 };
typedef struct { ffn_params_t p; float x[FN_ * FD], r[FN_ * FD]; } ffn_ctx;

static double ffn_loss(void *q) {
    ffn_ctx *c = q;
    float h[FN_ * FF], y[FN_ * FD];
    ffn_forward(&c->p, c->x, h, y, FN_);
    return dot_r(c->r, y, FN_ * FD);
}

Test(ffn, backward_matches_finite_differences) {
    ffn_ctx c;
    ffn_params_t g;
    cr_assert_eq(ffn_alloc(&c.p, FD, FF), 0);
    cr_assert_eq(ffn_alloc(&g, FD, FF), 0);
    rng_t rng;
    rng_seed(&rng, 33);
    ffn_init(&c.p, &rng);
    rng_fill_normal(&rng, c.p.b1, FF, 0, 0.3f);
    rng_fill_normal(&rng, c.p.b2, FD, 0, 0.3f);
    rng_fill_normal(&rng, c.x, FN_ * FD, 0, 1);
    rng_fill_normal(&rng, c.r, FN_ * FD, 0, 1);
    float h[FN_ * FF], y[FN_ * FD], dx[FN_ * FD] = {0}, scratch[FN_ * FF];
    ffn_forward(&c.p, c.x, h, y, FN_);
    ffn_backward(&c.p, &g, c.x, h, c.r, dx, FN_, scratch);
    check_grad("dx", c.x, dx, FN_ * FD, ffn_loss, &c);
    check_grad("dw1", c.p.w1, g.w1, FD * FF, ffn_loss, &c);
    check_grad("db1", c.p.b1, g.b1, FF, ffn_loss, &c);
    check_grad("dw2", c.p.w2, g.w2, FF * FD, ffn_loss, &c);
    check_grad("db2", c.p.b2, g.b2, FD, ffn_loss, &c);
    ffn_free(&c.p);
    ffn_free(&g);
}

// --- multi-head attention -------------------------------------------------------

enum { MN = 3, MM = 4, MD = 6, MH = 2 };
typedef struct {
    mha_params_t p;
    float xq[MN * MD], xkv[MM * MD], r[MN * MD];
    unsigned char mask[MN * MM];
    int self;
} mha_ctx;

static double mha_loss(void *q) {
    mha_ctx *c = q;
    float out[MN * MD];
    const float *kv = c->self ? c->xq : c->xkv;
    cr_assert_eq(mha_forward(&c->p, c->xq, MN, kv, c->self ? MN : MM, c->self ? NULL : c->mask,
                             out, NULL), 0);
    return dot_r(c->r, out, MN * MD);
}

static void mha_case(int self) {
    mha_ctx c;
    mha_params_t g;
    c.self = self;
    cr_assert_eq(mha_alloc(&c.p, MD, MH), 0);
    cr_assert_eq(mha_alloc(&g, MD, MH), 0);
    rng_t rng;
    rng_seed(&rng, 44 + (uint64_t)self);
    mha_init(&c.p, &rng);
    rng_fill_normal(&rng, c.p.b_o, MD, 0, 0.3f);
    rng_fill_normal(&rng, c.xq, MN * MD, 0, 1);
    rng_fill_normal(&rng, c.xkv, MM * MD, 0, 1);
    rng_fill_normal(&rng, c.r, MN * MD, 0, 1);
    for (int i = 0; i < MN * MM; i++) c.mask[i] = (i * 7 % 5) != 0;
    for (int j = 0; j < MM; j++) c.mask[1 * MM + j] = 0;   // query 1 sees nothing
    int m = self ? MN : MM;
    const float *kv = self ? c.xq : c.xkv;
    const unsigned char *mask = self ? NULL : c.mask;
    float *buf = calloc(mha_cache_floats(&c.p, MN, m), sizeof(float));
    mha_cache_t cache;
    mha_cache_bind(&cache, buf, &c.p, MN, m);
    float out[MN * MD], plain[MN * MD], dxq[MN * MD] = {0}, dxkv[MM * MD] = {0};
    cr_assert_eq(mha_forward_cache(&c.p, c.xq, MN, kv, m, mask, &cache, out), 0);
    cr_assert_eq(mha_forward(&c.p, c.xq, MN, kv, m, mask, plain, NULL), 0);
    for (int i = 0; i < MN * MD; i++) cr_assert_eq(out[i], plain[i], "cached forward differs");
    cr_assert_eq(mha_backward(&c.p, &g, c.xq, MN, kv, m, &cache, c.r, dxq,
                              self ? dxq : dxkv), 0);
    check_grad("dxq", c.xq, dxq, MN * MD, mha_loss, &c);
    if (!self) check_grad("dxkv", c.xkv, dxkv, MM * MD, mha_loss, &c);
    check_grad("dw_q", c.p.w_q, g.w_q, MD * MD, mha_loss, &c);
    check_grad("dw_k", c.p.w_k, g.w_k, MD * MD, mha_loss, &c);
    check_grad("dw_v", c.p.w_v, g.w_v, MD * MD, mha_loss, &c);
    check_grad("dw_o", c.p.w_o, g.w_o, MD * MD, mha_loss, &c);
    check_grad("db_o", c.p.b_o, g.b_o, MD, mha_loss, &c);
    free(buf);
    mha_free(&c.p);
    mha_free(&g);
}

Test(multihead, backward_self_attention_matches_finite_differences) { mha_case(1); }
Test(multihead, backward_cross_attention_with_mask_matches_finite_differences) { mha_case(0); }
