// test_sweep.c -- every public library function at the edges of its sizes.
//
// The sweep generates every combination of the sizes -1, 0, 1, 2, 3 for each
// size parameter of each function (up to 5^4 calls a function), allocates
// every buffer to exactly the size the header's shape comment gives, fills
// the inputs with ordinary finite numbers and checks that every output and
// every returned number is finite. Built with AddressSanitizer and UBSan
// (tests/sanitize.sh), a read or write past any buffer fails the test.
// CONTRIBUTING.md ("Degenerate sizes and out-of-range parameters") is the rule
// checked here; a last test checks that no public function in the headers of
// every group but program/ (base/ ... models/, tests/lint.conf's order) is
// missing from the sweep.
//
// Out-of-range parameters (temperature, dropout probability, kernel width,
// histogram range, layer-norm eps, a zero start vector) have their own tests
// below: refused with -1 (or NaN where a number is returned), outputs untouched.
#define _POSIX_C_SOURCE 200809L   // mkstemp, fdopen (the corpus case)
#include <criterion/criterion.h>
#include <glob.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mat.h"
#include "base/rng.h"
#include "base/stats.h"
#include "base/linear.h"
#include "base/tmat.h"
#include "base/fmath.h"
#include "base/views.h"
#include "attention/attention.h"
#include "attention/attn_stats.h"
#include "attention/dropout.h"
#include "attention/geometry.h"
#include "attention/bandwidth.h"
#include "attention/kernel_regression.h"
#include "attention/kernels.h"
#include "attention/logsoftmax.h"
#include "attention/patterns.h"
#include "attention/sa_grad.h"
#include "attention/scoring.h"
#include "attention/self_attention.h"
#include "attention/softmax.h"
#include "attention/softmax_grad.h"
#include "attention/spectral.h"
#include "layers/block.h"
#include "layers/block_train.h"
#include "layers/ffn.h"
#include "layers/layernorm.h"
#include "layers/multihead.h"
#include "layers/qk_train.h"
#include "layers/gqa.h"
#include "layers/rmsnorm.h"
#include "layers/swiglu.h"
#include "layers/tied_embed.h"
#include "layers/additive.h"
#include "layers/embedding.h"
#include "layers/geglu.h"
#include "layers/gru.h"
#include "layers/luong.h"
#include "layers/sublayer.h"
#include "variants/child.h"
#include "variants/hard.h"
#include "variants/linear_attention.h"
#include "variants/online.h"
#include "variants/online_merge.h"
#include "variants/relative.h"
#include "variants/sparse.h"
#include "variants/topk.h"
#include "masks/kv_cache.h"
#include "masks/mask.h"
#include "position/alibi.h"
#include "position/learned.h"
#include "position/rope.h"
#include "position/sinusoidal.h"
#include "fast/tiled.h"
#include "fast/tile_mm.h"
#include "fast/flash_backward.h"
#include "position/rope_rows.h"
#include "data/beam.h"
#include "data/bpe.h"
#include "data/corpus.h"
#include "data/mirror.h"
#include "data/ngram.h"
#include "data/sampling.h"
#include "train/metrics.h"
#include "train/optim.h"
#include "train/smooth.h"
#include "train/trainer.h"
#include "train/xent.h"
#include "models/gpt.h"
#include "models/seq2seq.h"
#include "models/transformer.h"

// ---------------------------------------------------------------------------
// buffers of exactly the right size

// The number of entries of a buffer of the given sizes; 0 if any is below 1.
static size_t cnt(int a, int b, int c) {
    if (a < 1 || b < 1 || c < 1) return 0;
    return (size_t)a * b * c;
}
#define N1(a) cnt(a, 1, 1)
#define N2(a, b) cnt(a, b, 1)
#define N3(a, b, c) cnt(a, b, c)

// A float buffer of exactly count entries (malloc(0) for none: any access is
// then an overflow), filled with finite values in [0.05, 0.95].
static float *fb(size_t count) {
    float *x = malloc(count * sizeof *x);
    cr_assert(x || count == 0);
    for (size_t i = 0; i < count; i++)
        x[i] = 0.05f + 0.9f * (float)((i * 7919) % 97) / 97;
    return x;
}
static unsigned char *mb(size_t count) {   // a mask: every third entry hidden
    unsigned char *m = malloc(count);
    for (size_t i = 0; i < count; i++) m[i] = i % 3 != 1;
    return m;
}
static double *db(size_t count) {
    double *x = malloc(count * sizeof *x);
    for (size_t i = 0; i < count; i++) x[i] = 1.0 + (double)i;
    return x;
}

static const char *g_name;   // the function under test, for messages
static const int *g_s;       // its sizes

static void fin(const float *x, size_t count, const char *what) {
    for (size_t i = 0; i < count; i++)
        cr_assert(isfinite(x[i]), "%s(%d, %d, %d, %d): %s[%zu] = %g", g_name, g_s[0],
                  g_s[1], g_s[2], g_s[3], what, i, x[i]);
}
static void fin1(double v, const char *what) {
    cr_assert(isfinite(v), "%s(%d, %d, %d, %d): %s = %g", g_name, g_s[0], g_s[1],
              g_s[2], g_s[3], what, v);
}

// ---------------------------------------------------------------------------
// one case per public function; s holds its sizes

static void sw_mat_mul(const int *s) {
    float *a = fb(N2(s[0], s[1])), *b = fb(N2(s[1], s[2])), *c = fb(N2(s[0], s[2]));
    mat_mul(a, b, c, s[0], s[1], s[2]);
    fin(c, N2(s[0], s[2]), "c");
    free(a); free(b); free(c);
}
static void sw_mat_mul_bt(const int *s) {
    float *a = fb(N2(s[0], s[1])), *b = fb(N2(s[2], s[1])), *c = fb(N2(s[0], s[2]));
    mat_mul_bt(a, b, c, s[0], s[1], s[2]);
    fin(c, N2(s[0], s[2]), "c");
    free(a); free(b); free(c);
}
static void sw_mat_transpose(const int *s) {
    float *a = fb(N2(s[0], s[1])), *t = fb(N2(s[0], s[1]));
    mat_transpose(a, t, s[0], s[1]);
    free(a); free(t);
}
static void sw_mat_scale(const int *s) {
    float *x = fb(N1(s[0]));
    mat_scale(x, s[0], 2.0f);
    free(x);
}
static void sw_mat_add(const int *s) {
    float *x = fb(N1(s[0])), *y = fb(N1(s[0]));
    mat_add(y, x, s[0]);
    free(x); free(y);
}
static void sw_mat_add_row(const int *s) {
    float *x = fb(N2(s[0], s[1])), *b = fb(N1(s[1]));
    mat_add_row(x, b, s[0], s[1]);
    free(x); free(b);
}
static void sw_mat_dot(const int *s) {
    float *a = fb(N1(s[0])), *b = fb(N1(s[0]));
    fin1(mat_dot(a, b, s[0]), "dot");
    fin1(mat_norm(a, s[0]), "norm");
    free(a); free(b);
}
static void sw_mat_max_abs_diff(const int *s) {
    float *a = fb(N1(s[0])), *b = fb(N1(s[0]));
    fin1(mat_max_abs_diff(a, b, N1(s[0])), "diff");
    free(a); free(b);
}
static void sw_rng(const int *s) { // rng_seed, rng_next, rng_uniform, rng_normal, fills
    rng_t rng;
    rng_seed(&rng, (uint64_t)(s[0] + 1));
    (void)rng_next(&rng);
    fin1(rng_uniform(&rng), "uniform");
    fin1(rng_normal(&rng), "normal");
    float *x = fb(N1(s[0]));
    rng_fill_normal(&rng, x, s[0], 0.0f, 1.0f);
    rng_fill_uniform(&rng, x, s[0], -1.0f, 1.0f);
    fin(x, N1(s[0]), "x");
    free(x);
}
static void sw_stats_of(const int *s) {
    float *x = fb(N1(s[0]));
    stats_t st = stats_of(x, s[0]);
    fin1(st.mean, "mean");
    fin1(st.std, "std");
    fin1(st.min, "min");
    fin1(st.max, "max");
    free(x);
}
static void sw_stats_histogram(const int *s) {
    float *x = fb(N1(s[0]));
    int *counts = malloc(N1(s[1]) * sizeof *counts);
    int rc = stats_histogram(x, s[0], 0.0, 1.0, s[1], counts);
    cr_assert(rc == (s[1] < 1 ? -1 : (int)N1(s[0])), "histogram(%d, %d) = %d", s[0],
              s[1], rc);
    free(x); free(counts);
}
static void sw_attention(const int *s) {   // scores, combine, forward
    int n = s[0], m = s[1], d_k = s[2], d_v = s[3];
    float *q = fb(N2(n, d_k)), *k = fb(N2(m, d_k)), *v = fb(N2(m, d_v));
    float *w = fb(N2(n, m)), *out = fb(N2(n, d_v));
    unsigned char *mask = mb(N2(n, m));
    attention_scores(q, k, w, n, m, d_k);
    fin(w, N2(n, m), "scores");
    attention_combine(w, v, out, n, m, d_v);
    attention_forward(q, k, v, NULL, out, w, n, m, d_k, d_v);
    fin(w, N2(n, m), "weights");
    fin(out, N2(n, d_v), "out");
    attention_forward(q, k, v, mask, out, w, n, m, d_k, d_v);
    fin(w, N2(n, m), "masked weights");
    fin(out, N2(n, d_v), "masked out");
    free(q); free(k); free(v); free(w); free(out); free(mask);
}
static void sw_attn_stats(const int *s) {
    int n = s[0], m = s[1];
    float *w = fb(N2(n, m)), *sq = fb(N2(n, n));
    fin1(attn_row_entropy(w, m < 0 || n < 1 ? 0 : m), "row entropy");
    fin1(attn_mean_entropy(w, n, m), "mean entropy");
    fin1(attn_row_sum_error(w, n, m), "row sum error");
    fin1(attn_max_weight(w, n, m), "max");
    fin1(attn_min_weight(w, n, m), "min");
    fin1(attn_diag_strength(sq, n), "diag");
    fin1(attn_locality(w, n, m, s[2]), "locality");
    fin1(attn_sparsity(w, n, m, 0.5f), "sparsity");
    free(w); free(sq);
}
static void sw_dropout(const int *s) {
    rng_t rng;
    rng_seed(&rng, 1);
    float *x = fb(N1(s[0])), *y = fb(N1(s[0]));
    unsigned char *keep = mb(N1(s[0]));
    cr_assert_eq(dropout_forward(x, y, keep, s[0], 0.5f, &rng), 0);
    cr_assert_eq(dropout_forward(x, y, NULL, s[0], 1.0f, &rng), 0);
    cr_assert_eq(dropout_backward(x, keep, y, s[0], 0.5f), 0);
    cr_assert_eq(dropout_backward(x, keep, y, s[0], 1.0f), 0);
    fin(y, N1(s[0]), "y");
    free(x); free(y); free(keep);
}
static void sw_geometry(const int *s) {
    int n = s[0], m = s[1], d = s[2];
    float *q = fb(N2(n, d)), *k = fb(N2(m, d)), *norms = fb(N1(n)), *c = fb(N2(n, m));
    geom_row_norms(q, norms, n, d);
    fin(norms, N1(n), "norms");
    geom_cosine_matrix(q, k, c, n, m, d);
    fin(c, N2(n, m), "cos");
    fin1(geom_angle_degrees((double)s[0]), "angle");
    free(q); free(k); free(norms); free(c);
}
static void sw_kernel_regression(const int *s) {
    int n_q = s[0], n_t = s[1];
    float *xq = fb(N1(n_q)), *xt = fb(N1(n_t)), *w = fb(N2(n_q, n_t)),
          *yt = fb(N1(n_t));
    float *yp = fb(N1(n_q));
    fin1(nw_gaussian_kernel(s[2], 0.5), "kernel");
    int rc = nw_weights(xq, n_q, xt, n_t, 0.5f, w);
    cr_assert_eq(rc, n_q < 0 || n_t < 0 ? -1 : 0);
    fin(w, N2(n_q, n_t), "w");
    nw_predict(w, yt, yp, n_q, n_t);
    fin(yp, N1(n_q), "y_pred");
    free(xq); free(xt); free(w); free(yt); free(yp);
}
static void sw_patterns(const int *s) {
    float *w = fb(N2(s[0], s[0]));
    pattern_stats_t st;
    pattern_measure(w, s[0], &st);
    fin1(st.locality, "locality"); fin1(st.diag, "diag"); fin1(st.sparsity, "sparsity");
    fin1(st.entropy, "entropy"); fin1(st.entropy_ratio, "ratio");
    fin1(st.max_weight, "max");
    cr_assert_str_neq(pattern_name(pattern_classify(&st)), "");
    cr_assert_str_eq(pattern_name((pattern_kind_t)(s[0] + 10)), "?");
    free(w);
}
static void sw_scoring(const int *s) {
    int d = s[0], d_q = s[1], d_k = s[2], d_h = s[3];
    float *q = fb(N1(d)), *k = fb(N1(d));
    fin1(score_dot(q, k, d), "dot");
    fin1(score_scaled_dot(q, k, d), "scaled dot");
    fin1(score_cosine(q, k, d), "cosine");
    float *wq = fb(N2(d_h, d_q)), *wk = fb(N2(d_h, d_k)), *v = fb(N1(d_h));
    float *qa = fb(N1(d_q)), *ka = fb(N1(d_k));
    additive_params_t p = {
            .w_q = wq, .w_k = wk, .v = v, .d_q = d_q, .d_k = d_k, .d_h = d_h};
    fin1(score_additive(&p, qa, ka), "additive");
    float *w = fb(N1(d));
    score_hard(q, w, d);
    fin(w, N1(d), "hard");
    free(q); free(k); free(wq); free(wk); free(v); free(qa); free(ka); free(w);
}
static void sw_self_attention(const int *s) {
    int n = s[0], d_model = s[1], d_k = s[2], d_v = s[3];
    float *x = fb(N2(n, d_model)), *w = fb(N2(n, n)), *o = fb(N2(n, d_model));
    self_attn_simple(x, NULL, o, w, n, d_model);
    fin(w, N2(n, n), "weights"); fin(o, N2(n, d_model), "out");
    self_attn_params_t p;
    int rc = self_attn_alloc(&p, d_model, d_k, d_v, n % 2 == 0);
    cr_assert_eq(rc, d_model < 1 || d_k < 1 || d_v < 1 ? -1 : 0);
    if (rc == 0) {
        rng_t rng;
        rng_seed(&rng, 3);
        self_attn_init(&p, &rng);
        float *q = fb(N2(n, d_k)), *k = fb(N2(n, d_k)), *v = fb(N2(n, d_v));
        float *out = fb(N2(n, d_v));
        unsigned char *mask = mb(N2(n, n));
        self_attn_forward(&p, x, mask, q, k, v, w, out, n);
        fin(out, N2(n, d_v), "out");
        free(q); free(k); free(v); free(out); free(mask);
    }
    self_attn_free(&p);
    self_attn_free(&p);   // safe twice
    free(x); free(w); free(o);
}
static void sw_softmax(const int *s) {
    int n = s[0], m = s[1];
    float *x = fb(N1(n)), *jac = fb(N2(n, n)), *dx = fb(N1(n));
    softmax_naive(x, n);
    softmax(x, n);
    fin(x, N1(n), "softmax");
    softmax_jacobian(x, jac, n);
    softmax_backward(x, x, dx, n);
    fin(jac, N2(n, n), "jacobian"); fin(dx, N1(n), "dx");
    float *a = fb(N2(n, m));
    unsigned char *mask = mb(N2(n, m));
    softmax_rows(a, n, m);
    cr_assert_eq(softmax_rows_temp(a, n, m, 0.5f), 0);
    softmax_rows_masked(a, mask, n, m);
    softmax_rows_masked(a, NULL, n, m);
    fin(a, N2(n, m), "rows");
    free(x); free(jac); free(dx); free(a); free(mask);
}
static void sw_spectral(const int *s) {
    int n = s[0];
    float *a = fb(N2(n, n));
    double *x = db(N1(n)), lambda = -1.0;
    int rc = spectral_power_iteration(a, n, s[1] % 2, x, s[2], 1e-9, &lambda);
    cr_assert(rc >= -1, "power iteration(%d) = %d", n, rc);
    fin1(lambda, "lambda");
    fin1(spectral_max_abs_row_sum(a, n), "row sum");
    free(a); free(x);
}
static void sw_layernorm(const int *s) {
    int n = s[0], d = s[1];
    float *x = fb(N2(n, d)), *g = fb(N1(d)), *b = fb(N1(d)), *y = fb(N2(n, d));
    cr_assert_eq(layernorm_forward(x, g, b, y, n, d, 1e-5f), 0);
    fin(y, N2(n, d), "y");
    layernorm_params_t p;
    int rc = layernorm_alloc(&p, d);
    cr_assert_eq(rc, d < 1 ? -1 : 0);
    if (rc == 0) {
        layernorm_add_norm(x, x, &p, y, n);
        fin(y, N2(n, d), "add_norm");
    }
    layernorm_free(&p);
    layernorm_free(&p);
    free(x); free(g); free(b); free(y);
}
static void sw_linear(const int *s) {
    int n = s[0], d_in = s[1], d_out = s[2];
    float *x = fb(N2(n, d_in)), *w = fb(N2(d_in, d_out)), *b = fb(N1(d_out));
    float *y = fb(N2(n, d_out)), *dx = fb(N2(n, d_in)), *dw = fb(N2(d_in, d_out));
    float *dbias = fb(N1(d_out));
    linear_forward(x, w, b, y, n, d_in, d_out);
    linear_forward(x, w, NULL, y, n, d_in, d_out);
    fin(y, N2(n, d_out), "y");
    linear_backward(x, w, y, dx, dw, dbias, n, d_in, d_out);
    fin(dx, N2(n, d_in), "dx"); fin(dw, N2(d_in, d_out), "dw");
    fin(dbias, N1(d_out), "db");
    rng_t rng;
    rng_seed(&rng, 5);
    linear_init_uniform(&rng, w, d_in, d_out, 0.5f);
    linear_init_normal(&rng, w, d_in, d_out, 0.5f);
    linear_init_xavier(&rng, w, d_in, d_out);
    fin(w, N2(d_in, d_out), "w");
    free(x); free(w); free(b); free(y); free(dx); free(dw); free(dbias);
}
static void sw_ffn(const int *s) {
    int n = s[0], d_model = s[1], d_ff = s[2];
    ffn_params_t p;
    int rc = ffn_alloc(&p, d_model, d_ff);
    cr_assert_eq(rc, d_model < 1 || d_ff < 1 ? -1 : 0);
    if (rc == 0) {
        rng_t rng;
        rng_seed(&rng, 7);
        ffn_init(&p, &rng);
        cr_assert_eq(ffn_param_count(&p), 2L * d_model * d_ff + d_ff + d_model);
        float *x = fb(N2(n, d_model)), *h = fb(N2(n, d_ff)), *y = fb(N2(n, d_model));
        ffn_forward(&p, x, h, y, n);
        fin(y, N2(n, d_model), "y");
        free(x); free(h); free(y);
    }
    ffn_free(&p);
    ffn_free(&p);
}
static void sw_multihead(const int *s) {
    int n = s[0], m = s[1], h = s[2], d_k = s[3];
    float *x = fb(N3(n, h, d_k)), *heads = fb(N3(h, n, d_k));
    mha_split_heads(x, heads, n, h, d_k);
    mha_concat_heads(heads, x, n, h, d_k);
    free(x); free(heads);
    int d = h * d_k;
    mha_params_t p;
    int rc = mha_alloc(&p, d, h);
    cr_assert_eq(rc, h < 1 || d_k < 1 ? -1 : 0, "mha_alloc(%d, %d) = %d", d, h, rc);
    if (rc == 0) {
        rng_t rng;
        rng_seed(&rng, 9);
        mha_init(&p, &rng);
        cr_assert_eq(mha_param_count(&p), 4L * d * d + d);
        float *xq = fb(N2(n, d)), *xkv = fb(N2(m, d)), *out = fb(N2(n, d));
        float *w = fb(N3(h, n, m));
        unsigned char *mask = mb(N2(n, m));
        int want = n < 0 || m < 0 ? -1 : 0;
        cr_assert_eq(mha_forward(&p, xq, n, xkv, m, mask, out, w), want);
        fin(out, N2(n, d), "out"); fin(w, N3(h, n, m), "weights");
        cr_assert_eq(mha_forward(&p, xq, n, xkv, m, NULL, out, NULL), want);
        cr_assert_eq(mha_forward_loop(&p, xq, n, xkv, m, mask, out, w), want);
        cr_assert_eq(mha_forward_loop(&p, xq, n, xkv, m, NULL, out, NULL), want);
        fin(out, N2(n, d), "loop out");
        free(xq); free(xkv); free(out); free(w); free(mask);
    }
    mha_free(&p);
    mha_free(&p);
}
static void sw_blocks(const int *s) {
    int n = s[0], m = s[1], h = s[2] < 1 ? s[2] : 2, d_ff = s[3];
    int d = s[2] < 1 ? s[2] : 2 * s[2];
    encoder_block_t e;
    decoder_block_t dec;
    int re = encoder_block_alloc(&e, d, h, d_ff),
        rd = decoder_block_alloc(&dec, d, h, d_ff);
    int want = d < 1 || d_ff < 1 ? -1 : 0;
    cr_assert_eq(re, want);
    cr_assert_eq(rd, want);
    if (want == 0) {
        rng_t rng;
        rng_seed(&rng, 11);
        encoder_block_init(&e, &rng);
        decoder_block_init(&dec, &rng);
        cr_assert(encoder_block_param_count(&e) > 0);
        cr_assert(decoder_block_param_count(&dec) > 0);
        float *x = fb(N2(n, d)), *enc = fb(N2(m, d)), *y = fb(N2(n, d));
        float *sw = fb(N3(h, n, n)), *cw = fb(N3(h, n, m));
        unsigned char *mask = mb(N2(n, n)), *cmask = mb(N2(n, m));
        int fw = n < 0 || m < 0 ? -1 : 0;
        cr_assert_eq(encoder_block_forward(&e, x, n, mask, y, sw), n < 0 ? -1 : 0);
        fin(y, N2(n, d), "encoder y");
        cr_assert_eq(decoder_block_forward(&dec, x, n, enc, m, mask, cmask, y, sw, cw),
                     fw);
        cr_assert_eq(
                decoder_block_forward(&dec, x, n, enc, m, NULL, NULL, y, NULL, NULL),
                fw);
        fin(y, N2(n, d), "decoder y");
        free(x); free(enc); free(y); free(sw); free(cw); free(mask); free(cmask);
    }
    encoder_block_free(&e);
    decoder_block_free(&dec);
}

// --- training: backward passes and caches ----------------------------------------

static void sw_attention_backward(const int *s) {
    int n = s[0], m = s[1], d_k = s[2], d_v = s[3];
    float *q = fb(N2(n, d_k)), *k = fb(N2(m, d_k)), *v = fb(N2(m, d_v));
    float *w = fb(N2(n, m)), *dout = fb(N2(n, d_v)), *scratch = fb(N2(n, m));
    float *dq = fb(N2(n, d_k)), *dk = fb(N2(m, d_k)), *dv = fb(N2(m, d_v));
    const attn_saved_t fw = {q, k, v, w};
    attention_backward(&fw, dout, dq, dk, dv, n, m, d_k, d_v, scratch);
    fin(dq, N2(n, d_k), "dq"); fin(dk, N2(m, d_k), "dk"); fin(dv, N2(m, d_v), "dv");
    double sq = mat_sq_dist(q, q, N2(n, d_k));
    cr_assert(sq == 0.0, "mat_sq_dist(a, a) = %g", sq);
    free(q); free(k); free(v); free(w); free(dout); free(scratch);
    free(dq); free(dk); free(dv);
}
static void sw_layers_backward(const int *s) {
    int n = s[0], d = s[1], d_ff = s[2];
    float *x = fb(N2(n, d)), *gamma = fb(N1(d)), *dy = fb(N2(n, d)), *dx = fb(N2(n, d));
    float *dg = fb(N1(d)), *dbeta = fb(N1(d));
    int rc = layernorm_backward(x, gamma, dy, dx, dg, dbeta, n, d, 1e-5f);
    cr_assert_eq(rc, n < 0 || d < 0 ? -1 : 0, "layernorm_backward(%d, %d) = %d", n, d,
                 rc);
    fin(dx, N2(n, d), "dx"); fin(dg, N1(d), "dgamma");
    size_t nws = layernorm_scratch_doubles(d);
    cr_assert_eq(nws, d > 0 ? 2 * (size_t)d : 0, "layernorm_scratch_doubles(%d)", d);
    double *ws = malloc((nws ? nws : 1) * sizeof *ws);
    rc = layernorm_backward_ws(x, gamma, dy, dx, dg, dbeta, n, d, 1e-5f, ws);
    cr_assert_eq(rc, n < 0 || d < 0 ? -1 : 0, "layernorm_backward_ws(%d, %d) = %d", n,
                 d, rc);
    fin(dx, N2(n, d), "dx"); fin(dg, N1(d), "dgamma");
    free(ws);
    ffn_params_t p, g;
    if (ffn_alloc(&p, d, d_ff) == 0 && ffn_alloc(&g, d, d_ff) == 0) {
        rng_t rng;
        rng_seed(&rng, 5);
        ffn_init(&p, &rng);
        float *h = fb(N2(n, d_ff)), *y = fb(N2(n, d)), *sc = fb(N2(n, d_ff));
        ffn_forward(&p, x, h, y, n);
        ffn_backward(&p, &g, x, h, dy, dx, n, sc);
        fin(dx, N2(n, d), "ffn dx"); fin(g.w1, N2(d, d_ff), "dw1");
        free(h); free(y); free(sc);
        ffn_free(&g);
    }
    ffn_free(&p);
    free(x); free(gamma); free(dy); free(dx); free(dg); free(dbeta);
}
static void sw_mha_train(const int *s) {
    int n = s[0], m = s[1], h = s[2] < 1 ? 1 : s[2], d_k = s[3] < 1 ? 1 : s[3];
    int d = h * d_k;
    mha_params_t p, g;
    cr_assert_eq(mha_alloc(&p, d, h), 0);
    cr_assert_eq(mha_alloc(&g, d, h), 0);
    rng_t rng;
    rng_seed(&rng, 13);
    mha_init(&p, &rng);
    size_t nc = mha_cache_floats(&p, n, m);
    cr_assert(nc == (n < 0 || m < 0 ? 0 : 2 * N2(n, d) + 2 * N2(m, d) + N3(h, n, m)));
    float *buf = fb(nc), *xq = fb(N2(n, d)), *xkv = fb(N2(m, d)), *out = fb(N2(n, d));
    float *dxq = fb(N2(n, d)), *dxkv = fb(N2(m, d));
    unsigned char *mask = mb(N2(n, m));
    mha_cache_t c;
    mha_cache_bind(&c, buf, &p, n, m);
    int want = n < 0 || m < 0 ? -1 : 0;
    cr_assert_eq(mha_forward_cache(&p, xq, n, xkv, m, mask, &c, out), want);
    fin(out, N2(n, d), "out");
    cr_assert_eq(mha_backward(&p, &g, xq, n, xkv, m, &c, out, dxq, dxkv), want);
    fin(dxq, N2(n, d), "dxq");
    fin(dxkv, N2(m, d), "dxkv");
    fin(g.w_q, N2(d, d), "dw_q");
    free(buf); free(xq); free(xkv); free(out); free(dxq); free(dxkv); free(mask);
    mha_free(&p);
    mha_free(&g);
}
static void sw_qk_train(const int *s) {
    int n = s[0], d = s[1], k = s[2];
    float *x = fb(N2(n, d)), *w_q = fb(N2(d, k)), *w_k = fb(N2(d, k));
    float *q = fb(N2(n, k)), *kk = fb(N2(n, k)), *a = fb(N2(n, n));
    float *dw_q = fb(N2(d, k)), *dw_k = fb(N2(d, k));
    float *scratch = fb(N2(n, n) + 2 * N2(n, k));
    int *t = malloc((size_t)(n > 0 ? n : 0) * sizeof *t);
    for (int i = 0; i < n; i++) t[i] = i - 1;
    double loss = qk_forward(x, w_q, w_k, t, n, d, k, q, kk, a);
    cr_assert(isfinite(loss) && loss >= 0.0, "loss %g", loss);
    qk_backward(x, t, &(qk_saved_t){q, kk, a}, n, d, k, dw_q, dw_k, scratch);
    fin(dw_q, N2(d, k), "dw_q"); fin(dw_k, N2(d, k), "dw_k");
    free(x); free(w_q); free(w_k); free(q); free(kk); free(a); free(dw_q); free(dw_k);
    free(scratch); free(t);
}
static void sw_block_train(const int *s) {
    int n = s[0], m = s[1], d_ff = s[2] < 1 ? 1 : s[2];
    const int d = 4, h = 2;
    encoder_block_t e, ge;
    decoder_block_t dec, gd;
    cr_assert_eq(encoder_block_alloc(&e, d, h, d_ff), 0);
    cr_assert_eq(encoder_block_alloc(&ge, d, h, d_ff), 0);
    cr_assert_eq(decoder_block_alloc(&dec, d, h, d_ff), 0);
    cr_assert_eq(decoder_block_alloc(&gd, d, h, d_ff), 0);
    rng_t rng;
    rng_seed(&rng, 17);
    encoder_block_init(&e, &rng);
    decoder_block_init(&dec, &rng);
    blk_encoder_zero(&ge);
    blk_decoder_zero(&gd);
    float *ptr[BLK_DECODER_TENSORS];
    size_t len[BLK_DECODER_TENSORS];
    cr_assert_eq(blk_encoder_tensors(&e, ptr, len), BLK_ENCODER_TENSORS);
    cr_assert_eq(blk_decoder_tensors(&dec, ptr, len), BLK_DECODER_TENSORS);
    size_t ne = blk_encoder_cache_floats(&e, n),
           nd = blk_decoder_cache_floats(&dec, n, m);
    float *be = fb(ne), *bd = fb(nd), *x = fb(N2(n, d)), *enc = fb(N2(m, d));
    float *y = fb(N2(n, d)), *dx = fb(N2(n, d)), *denc = fb(N2(m, d));
    unsigned char *mask = mb(N2(n, n)), *cmask = mb(N2(n, m));
    blk_encoder_cache_t ce;
    blk_decoder_cache_t cd;
    if (ne) blk_encoder_cache_bind(&ce, be, &e, n);
    if (nd) blk_decoder_cache_bind(&cd, bd, &dec, n, m);
    int we = n < 1 ? -1 : 0, wd = n < 1 || m < 1 ? -1 : 0;
    cr_assert_eq(blk_encoder_forward(&e, x, n, mask, &ce, y), we);
    fin(y, N2(n, d), "encoder y");
    cr_assert_eq(blk_encoder_backward(&e, &ge, x, n, &ce, y, dx), we);
    fin(dx, N2(n, d), "encoder dx");
    cr_assert_eq(blk_decoder_forward(&dec, x, n, enc, m, mask, cmask, &cd, y), wd);
    fin(y, N2(n, d), "decoder y");
    cr_assert_eq(blk_decoder_backward(&dec, &gd, x, n, enc, m, &cd, y, dx, denc), wd);
    fin(dx, N2(n, d), "decoder dx"); fin(denc, N2(m, d), "denc");
    free(be); free(bd); free(x); free(enc); free(y); free(dx); free(denc);
    free(mask); free(cmask);
    encoder_block_free(&e); encoder_block_free(&ge);
    decoder_block_free(&dec); decoder_block_free(&gd);
}
static void sw_rmsnorm(const int *s) {
    int n = s[0], c = s[1];
    float *x = fb(N2(n, c)), *w = fb(N1(c)), *out = fb(N2(n, c)), *rstd = fb(N1(n));
    float *dx = fb(N2(n, c)), *dw = fb(N1(c));
    cr_assert_eq(rmsnorm_forward(out, rstd, x, w, n, c, RMSNORM_EPS), 0);
    fin(out, N2(n, c), "out");
    rmsnorm_backward(dx, dw, out, x, w, rstd, n, c);
    fin(dx, N2(n, c), "dx"); fin(dw, N1(c), "dw");
    free(x); free(w); free(out); free(rstd); free(dx); free(dw);
}
static void sw_swiglu(const int *s) {
    int n = s[0], c = s[1], f = s[2];
    float *w1 = fb(N2(c, f)), *w3 = fb(N2(c, f)), *w2 = fb(N2(f, c));
    float *g1 = fb(N2(c, f)), *g3 = fb(N2(c, f)), *g2 = fb(N2(f, c));
    swiglu_params_t p = {c, f, w1, w3, w2}, g = {c, f, g1, g3, g2};
    float *x = fb(N2(n, c)), *out = fb(N2(n, c)), *act = fb(N3(n, 3, f));
    float *dx = fb(N2(n, c));
    long ns = swiglu_scratch_floats(&p, n);
    float *sc = fb(ns > 0 ? (size_t)ns : 0);
    fin1((double)swiglu_param_count(&p), "params");
    swiglu_forward(&p, out, act, x, n);
    fin(out, N2(n, c), "out");
    swiglu_backward(&p, &g, dx, out, x, act, n, sc);
    fin(dx, N2(n, c), "dx"); fin(g1, N2(c, f), "dw1"); fin(g2, N2(f, c), "dw2");
    free(w1); free(w3); free(w2); free(g1); free(g3); free(g2);
    free(x); free(out); free(act); free(dx); free(sc);
}
static void sw_gqa(const int *s) {   // sizes T, NKV, heads per group, HS (B = 2)
    gqa_shape_t sh = {2, s[0], s[1] * s[2], s[1], s[3]};
    int ok = gqa_check(&sh) == 0;
    size_t nq = ok ? N3(2, sh.T, sh.NH * sh.HS) : 0;
    size_t nk = ok ? N3(2, sh.T, sh.NKV * sh.HS) : 0;
    size_t na = ok ? N3(2 * sh.NH, sh.T, sh.T) : 0;
    float *q = fb(nq), *k = fb(nk), *v = fb(nk), *out = fb(nq), *att = fb(na);
    float *dq = fb(nq), *dk = fb(nk), *dv = fb(nk);
    long ns = gqa_scratch_floats(&sh);
    float *sc = fb(ns > 0 ? (size_t)ns : 0);
    cr_assert_eq(gqa_forward(&sh, out, att, q, k, v), ok ? 0 : -1);
    fin(out, nq, "out"); fin(att, na, "att");
    cr_assert_eq(gqa_backward(&sh, dq, dk, dv, out, q, k, v, att, sc), ok ? 0 : -1);
    fin(dq, nq, "dq"); fin(dk, nk, "dk"); fin(dv, nk, "dv");
    fin1((double)gqa_kv_bytes_per_token(s[0], s[1], s[3], 4), "kv bytes");
    free(q); free(k); free(v); free(out); free(att);
    free(dq); free(dk); free(dv); free(sc);
}
static void sw_tied_embed(const int *s) {
    int n = s[0], v = s[1], c = s[2];
    float *wte = fb(N2(v, c)), *x = fb(N2(n, c)), *logits = fb(N2(n, v));
    float *dx = fb(N2(n, c)), *dwte = fb(N2(v, c));
    int *tok = malloc(N1(n) * sizeof *tok);
    for (int i = 0; i < n; i++) tok[i] = v > 0 ? i % v : 0;
    cr_assert_eq(tied_embed_forward(x, tok, wte, n, v, c), n > 0 && v < 1 ? -1 : 0);
    tied_logits_forward(logits, x, wte, n, v, c);
    fin(logits, N2(n, v), "logits");
    tied_logits_backward(dx, dwte, logits, x, wte, n, v, c);
    tied_embed_backward(dwte, dx, tok, n, v, c);
    fin(dx, N2(n, c), "dx"); fin(dwte, N2(v, c), "dwte");
    free(wte); free(x); free(logits); free(dx); free(dwte); free(tok);
}

// --- base/tmat and chapter 8's layers ---------------------------------------

static void sw_tmat(const int *s) {
    int n = s[0], k = s[1], m = s[2];
    float *x = fb(N2(n, k)), *w = fb(N2(k, m)), *y = fb(N2(n, m));
    float *b = fb(N1(m)), *db = fb(N1(m));
    tmat_mul_acc(x, w, y, n, k, m);
    tmat_mul_bt_acc(y, w, x, n, k, m);
    tmat_at_mul_acc(x, y, w, n, k, m);
    fin(y, N2(n, m), "y"); fin(x, N2(n, k), "dx"); fin(w, N2(k, m), "dw");
    tmat_set_rows(y, b, n, m);
    tmat_set_rows(y, NULL, n, m);
    tmat_sum_rows_acc(y, db, n, m);
    fin(db, N1(m), "db");
    free(x); free(w); free(y); free(b); free(db);
}
// tanh_fast has no size: s[0] picks an argument, an ordinary one or an edge
static void sw_tanh_fast(const int *s) {
    const float xs[] = {-1e30f, -0.5f, 0.0f, 0.1f, 3.0f};
    fin1(tanh_fast(xs[s[0] + 1]), "tanh_fast");
}
// the row functions: sizes 0, 0, 5, 9, 13 (the tail alone, a vector and a tail)
static void sw_fmath_rows(const int *s) {
    size_t n = s[0] < 1 ? 0 : (size_t)(4 * s[0] + 1);
    float *e = fb(n), *t = fb(n), *g = fb(n);
    expf_n(e, n);
    tanh_fast_n(t, n);
    sigmoid_n(g, n);
    fin(e, n, "expf_n"); fin(t, n, "tanh_fast_n"); fin(g, n, "sigmoid_n");
    free(e); free(t); free(g);
}
static void sw_embedding(const int *s) {
    int n = s[0], v = s[1], e = s[2];
    float *table = fb(N2(v, e)), *pe = fb(N2(n, e)), *out = fb(N2(n, e));
    int *ids = malloc(N1(n) * sizeof *ids);
    for (int i = 0; i < n; i++) ids[i] = v > 0 ? i % v : 0;
    int want = n < 0 || v < 0 || e < 0 || (n > 0 && v < 1) ? -1 : 0;
    cr_assert_eq(embedding_forward(table, ids, out, n, v, e), want,
                 "embedding_forward(%d, %d, %d)", n, v, e);
    fin(out, want ? 0 : N2(n, e), "out");
    embedding_backward(ids, out, table, n, v, e);
    cr_assert_eq(embedding_pos_forward(table, ids, pe, out, n, v, e), want,
                 "embedding_pos_forward(%d, %d, %d)", n, v, e);
    fin(out, want ? 0 : N2(n, e), "out");
    embedding_pos_backward(ids, out, table, n, v, e);
    fin(table, N2(v, e), "dtable");
    free(table); free(pe); free(out); free(ids);
}
// sizes: T, B, D, H
static void sw_gru(const int *s) {
    int t = s[0], b = s[1], d = s[2], h = s[3];
    long np = gru_param_count(d, h);
    cr_assert_eq(np, d > 0 && h > 0 ? 3L * h * (d + h + 2) : 0,
                 "gru_param_count(%d, %d)", d, h);
    float *w = fb((size_t)np), *g = fb((size_t)np);
    gru_params_t p, gp;
    cr_assert_eq(gru_bind(&p, w, d, h), w + np);
    gru_bind(&gp, g, d, h);
    float *x = fb(N3(t, b, d)), *h0 = fb(N2(b, h)), *hs = fb(N3(t, b, h));
    float *hs_b = fb(N3(t, b, h)), *cache = fb(N3(t, b, 4 * h));
    float *cache_b = fb(N3(t, b, 4 * h)), *work = fb(N2(b, 9 * h));
    float *dx = fb(N3(t, b, d)), *dh0 = fb(N2(b, h)), *out = fb(N3(t, b, 2 * h));
    float *dsplit = fb(N3(2 * t, b, h));
    unsigned char *mask = mb(N2(b, t));
    float *x1 = fb(N2(b, d)), *h1 = fb(N2(b, h)), *c1 = fb(N2(b, 4 * h));
    float *dx1 = fb(N2(b, d));
    gru_cell_forward(&p, x1, h0, h1, c1, work, b);
    fin(h1, N2(b, h), "h_out");
    gru_cell_backward(&p, &gp, x1, h0, c1, h1, dx1, dh0, work, b);
    fin(dx1, N2(b, d), "dx"); fin(dh0, N2(b, h), "dh");
    free(x1); free(h1); free(c1); free(dx1);
    gru_seq_t q = {x, mask, h0, hs, cache, t, b, 1};
    gru_seq_forward(&p, &q, work);
    fin(hs, N3(t, b, h), "hs");
    gru_seq_backward(&p, &gp, &q, hs, dx, dh0, work);
    fin(dx, N3(t, b, d), "dx"); fin(g, (size_t)np, "g");
    bigru_seq_t bq = {x, mask, hs, hs_b, cache, cache_b, t, b};
    bigru_forward(&p, &p, &bq, out, work);
    fin(out, N3(t, b, 2 * h), "out");
    bigru_backward(&p, &p, &gp, &gp, &bq, out, dx, dsplit, work);
    fin(dx, N3(t, b, d), "dx"); fin(g, (size_t)np, "g");
    free(w); free(g); free(x); free(h0); free(hs); free(hs_b); free(cache);
    free(cache_b); free(work); free(dx); free(dh0); free(out); free(dsplit); free(mask);
}
// sizes: T, B, K (= S, the query width), A
static void sw_additive(const int *s) {
    int t = s[0], b = s[1], k = s[2], a = s[3];
    float *ann = fb(N3(t, b, k)), *u_a = fb(N2(k, a)), *keys = fb(N3(t, b, a));
    float *q = fb(N2(b, k)), *w_a = fb(N2(k, a)), *v = fb(N1(a));
    float *alpha = fb(N2(b, t)), *c = fb(N2(b, k)), *th = fb(N3(t, b, a));
    float *wq = fb(N2(b, a)), *work = fb(N2(b, t + a)), *dq = fb(N2(b, k));
    float *dw_a = fb(N2(k, a)), *dv = fb(N1(a)), *dkeys = fb(N3(t, b, a));
    float *dann = fb(N3(t, b, k)), *du_a = fb(N2(k, a));
    unsigned char *mask = mb(N2(b, t));
    addattn_keys_forward(ann, u_a, keys, t, b, k, a);
    fin(keys, N3(t, b, a), "keys");
    addattn_dims_t dims = {t, b, k, k, a};
    addattn_out_t o = {alpha, c, th};
    addattn_forward(&dims, q, w_a, v, keys, ann, mask, &o, wq);
    fin(alpha, N2(b, t), "alpha"); fin(c, N2(b, k), "c");
    addattn_grads_t g = {dq, dw_a, dv, dkeys, dann};
    addattn_backward(&dims, q, w_a, v, ann, &o, c, &g, work);
    addattn_keys_backward(ann, u_a, dkeys, dann, du_a, t, b, k, a);
    fin(dq, N2(b, k), "ds"); fin(dann, N3(t, b, k), "dann");
    fin(du_a, N2(k, a), "du_a");
    free(ann); free(u_a); free(keys); free(q); free(w_a); free(v); free(alpha); free(c);
    free(th); free(wq); free(work); free(dq); free(dw_a); free(dv); free(dkeys);
    free(dann); free(du_a); free(mask);
}
static void sw_geglu(const int *s) {   // count
    long n = s[0];
    float *a = fb(N1(s[0])), *b = fb(N1(s[0])), *h = fb(N1(s[0]));
    float *da = fb(N1(s[0])), *db = fb(N1(s[0]));
    fin1(geglu_gelu((double)n), "gelu");
    geglu_forward(a, b, h, n);
    fin(h, N1(s[0]), "h");
    geglu_backward(a, b, h, da, db, n);
    fin(da, N1(s[0]), "da"); fin(db, N1(s[0]), "db");
    free(a); free(b); free(h); free(da); free(db);
}
static void sw_luong(const int *s) {   // T, S, K
    int t = s[0], sd = s[1], k = s[2];
    const luong_dims_t d = {t, sd, k};
    float *q = fb(N1(sd)), *w = fb(N2(sd, k)), *ann = fb(N2(t, k));
    float *alpha = fb(N1(t)), *c = fb(N1(k)), *ds = fb(N1(sd)), *dw = fb(N2(sd, k));
    float *dann = fb(N2(t, k));
    unsigned char *mask = mb(N1(t));
    luong_general_scores(&d, q, w, ann, alpha);
    fin(alpha, N1(t), "scores");
    luong_general_attend(&d, q, w, ann, mask, alpha, c);
    luong_general_attend(&d, q, w, ann, NULL, alpha, c);
    fin(alpha, N1(t), "alpha"); fin(c, N1(k), "c");
    luong_general_backward(&d, q, w, ann, alpha, c, ds, dw, dann);
    fin(ds, N1(sd), "ds"); fin(dw, N2(sd, k), "dw"); fin(dann, N2(t, k), "dann");
    free(q); free(w); free(ann); free(alpha); free(c); free(ds); free(dw); free(dann);
    free(mask);
}

// --- variants/ ------------------------------------------------------------

static void sw_hard(const int *s) {
    int n = s[0], m = s[1], d_k = s[2], d_v = s[3];
    float *q = fb(N2(n, d_k)), *k = fb(N2(m, d_k)), *v = fb(N2(m, d_v));
    float *out = fb(N2(n, d_v));
    unsigned char *mask = mb(N2(n, m));
    int *idx = malloc(N1(n) * sizeof *idx);
    hard_forward(q, k, v, NULL, out, idx, n, m, d_k, d_v);
    fin(out, N2(n, d_v), "out");
    for (size_t i = 0; i < N1(n); i++)
        cr_assert(idx[i] >= -1 && idx[i] < (m > 0 ? m : 0));
    hard_forward(q, k, v, mask, out, NULL, n, m, d_k, d_v);
    fin(out, N2(n, d_v), "masked out");
    free(q); free(k); free(v); free(out); free(mask); free(idx);
}
static void sw_linear_attention(const int *s) {
    int n = s[0], m = s[1], d_k = s[2], d_v = s[3];
    int bad = n < 0 || m < 0 || d_k < 0 || d_v < 0 ? -1 : 0;
    float *q = fb(N2(n, d_k)), *k = fb(N2(m, d_k)), *v = fb(N2(m, d_v));
    float *out = fb(N2(n, d_v)), *w = fb(N2(n, m)), *phi = fb(N2(n, d_k));
    unsigned char *mask = mb(N2(n, m));
    linattn_feature(q, phi, (long)N2(n, d_k));
    fin(phi, N2(n, d_k), "phi");
    cr_assert_eq(linattn_forward_quadratic(q, k, v, NULL, out, w, n, m, d_k, d_v), bad);
    cr_assert_eq(linattn_forward_quadratic(q, k, v, mask, out, w, n, m, d_k, d_v), bad);
    fin(w, N2(n, m), "weights");
    cr_assert_eq(linattn_forward(q, k, v, out, n, m, d_k, d_v), bad);
    fin(out, N2(n, d_v), "out");
    (void)linattn_work_bytes(d_k, d_v);
    free(k); free(v);
    k = fb(N2(n, d_k)), v = fb(N2(n, d_v));   // causal: n keys
    int bad_c = n < 0 || d_k < 0 || d_v < 0 ? -1 : 0;
    cr_assert_eq(linattn_causal(q, k, v, out, n, d_k, d_v), bad_c);
    fin(out, N2(n, d_v), "causal out");
    free(q); free(k); free(v); free(out); free(w); free(phi); free(mask);
}
static void sw_online_state(const int *s) {   // d_v, count, n
    int d_v = s[0], count = s[1], n = s[2];
    double *acc = db(N1(d_v));
    float *scores = fb(N1(count)), *v = fb(N2(count, d_v)), *out = fb(N1(d_v));
    online_state_t st;
    online_init(&st, acc, d_v);
    online_update(&st, scores, v, count);
    if (count > 0) scores[0] = -INFINITY;
    online_update(&st, scores, v, count);
    online_finish(&st, out);
    fin(out, N1(d_v), "out");
    float *x = fb(N1(n));
    online_softmax(x, n);
    fin(x, N1(n), "softmax");
    free(acc); free(scores); free(v); free(out); free(x);
}
static void sw_online_attention(const int *s) {
    int n = s[0], m = s[1], d_k = s[2], d_v = s[3];
    int bad = n < 0 || m < 0 || d_k < 0 || d_v < 0 ? -1 : 0;
    float *q = fb(N2(n, d_k)), *k = fb(N2(m, d_k)), *v = fb(N2(m, d_v));
    float *out = fb(N2(n, d_v));
    unsigned char *mask = mb(N2(n, m));
    for (int block = 1; block <= 2; block++) {
        cr_assert_eq(online_attention(q, k, v, NULL, out, n, m, d_k, d_v, block), bad);
        cr_assert_eq(online_attention(q, k, v, mask, out, n, m, d_k, d_v, block), bad);
        fin(out, N2(n, d_v), "out");
        (void)online_work_bytes(d_v, block);
    }
    cr_assert_eq(online_attention(q, k, v, mask, out, n, m, d_k, d_v, 0), -1);
    free(q); free(k); free(v); free(out); free(mask);
}
static void sw_relative(const int *s) {   // k_max = 1, and -1 (treated as 0)
    int n = s[0], m = s[1], d_k = s[2], d_v = s[3];
    for (int k_max = -1; k_max <= 1; k_max += 2) {
        int rows = 2 * (k_max < 0 ? 0 : k_max) + 1;
        float *q = fb(N2(n, d_k)), *k = fb(N2(m, d_k)), *v = fb(N2(m, d_v));
        float *ek = fb(N2(rows, d_k)), *ev = fb(N2(rows, d_v));
        float *out = fb(N2(n, d_v)), *w = fb(N2(n, m));
        unsigned char *mask = mb(N2(n, m));
        int *idx = malloc(N2(n, m) * sizeof *idx);
        relpos_index(idx, n, m, k_max);
        for (size_t i = 0; i < N2(n, m); i++) cr_assert(idx[i] >= 0 && idx[i] < rows);
        relpos_t rel = {.emb_k = ek, .emb_v = ev, .k_max = k_max, .d_k = d_k,
                        .d_v = d_v};
        relpos_forward(q, k, v, &rel, mask, out, w, n, m);
        fin(out, N2(n, d_v), "out"); fin(w, N2(n, m), "weights");
        rel.emb_v = NULL;
        relpos_forward(q, k, v, &rel, NULL, out, w, n, m);
        fin(out, N2(n, d_v), "key-only out");
        free(q); free(k); free(v); free(ek); free(ev); free(out); free(w);
        free(mask); free(idx);
    }
}
static void sw_sparse(const int *s) {   // n, window, stride, d
    int n = s[0], window = s[1], stride = s[2], d = s[3];
    for (int causal = 0; causal <= 1; causal++) {
        (void)sparse_visible(n, window, window, stride, causal);
        sparse_pattern_t p;
        int rc = sparse_build(&p, n, window, stride, causal);
        cr_assert_eq(rc, n < 0 ? -1 : 0, "sparse_build(%d) = %d", n, rc);
        unsigned char *mask = mb(N2(n, n));
        float *q = fb(N2(n, d)), *k = fb(N2(n, d)), *v = fb(N2(n, d));
        float *out = fb(N2(n, d));
        if (rc == 0) {
            sparse_to_mask(&p, mask);
            (void)sparse_pattern_bytes(&p);
            (void)sparse_work_bytes(&p);
            int reach = sparse_two_step_reach(&p);
            cr_assert(reach == 0 || reach == 1, "sparse_two_step_reach = %d", reach);
            cr_assert_eq(sparse_forward(q, k, v, &p, out, d, d), d < 0 ? -1 : 0);
            fin(out, N2(n, d), "out");
        }
        sparse_free(&p);
        sparse_free(&p);
        sparse_pattern_t pm;
        unsigned char *rect = mb(N2(n, window));
        rc = sparse_from_mask(&pm, rect, n, window);
        cr_assert_eq(rc, n < 0 || window < 0 ? -1 : 0);
        sparse_free(&pm);
        free(mask); free(rect); free(q); free(k); free(v); free(out);
    }
}

// --- masks/ ---------------------------------------------------------------

static void sw_mask_builders(const int *s) {   // n, m, w
    int n = s[0], m = s[1], w = s[2];
    unsigned char *sq = mb(N2(n, n)), *rect = mb(N2(n, m)), *keep = mb(N1(n));
    unsigned char *sq2 = mb(N2(n, n));
    int *ids = malloc(N1(n) * sizeof *ids);
    for (size_t i = 0; i < N1(n); i++) ids[i] = (int)(i % 2);
    rng_t rng;
    rng_seed(&rng, 3);
    mask_causal(sq, n);
    mask_full(rect, n, m);
    mask_band(sq, n, w);
    mask_window_causal(sq, n, w);
    mask_prefix_lm(sq, n, w);
    mask_random(sq, n, 0.5, &rng);
    mask_key_padding(ids, n, keep);
    mask_padding(ids, n, sq2);
    mask_and(sq, sq2, sq, N2(n, n));
    mask_invert(sq, sq2, N2(n, n));
    float *bias = fb(N2(n, m)), *wt = fb(N2(n, m));
    mask_to_additive(rect, bias, N2(n, m), -1e9f);
    fin(bias, N2(n, m), "bias");
    mask_multiply_rows(wt, rect, n, m, 0);
    mask_multiply_rows(wt, rect, n, m, 1);
    fin(wt, N2(n, m), "w");
    fin1(mask_round_half((float)w), "round_half");
    free(sq); free(rect); free(keep); free(sq2); free(ids); free(bias); free(wt);
}
static void sw_mask_measures(const int *s) {   // n, m, layers
    int n = s[0], m = s[1], layers = s[2];
    unsigned char *rect = mb(N2(n, m)), *sq = mb(N2(n, n)), *reach = mb(N2(n, n));
    mask_stats_t st = mask_stats(rect, n, m);
    fin1(st.density, "density"); fin1(st.mean_visible, "mean_visible");
    int rc = mask_reach(sq, n, layers, reach);
    cr_assert_eq(rc, n < 0 || layers < 0 ? -1 : 0, "mask_reach(%d, %d) = %d", n, layers,
                 rc);
    int tr = mask_is_transitive(sq, n);
    cr_assert(n <= 0 ? tr == 1 : tr == 0 || tr == 1, "mask_is_transitive = %d", tr);
    int *depth = malloc((N2(n, n) ? N2(n, n) : 1) * sizeof *depth);
    cr_assert_eq(mask_min_layers(sq, n, depth), n < 0 ? -1 : 0);
    free(depth);
    float *w = fb(N2(n, m));
    mask_flow_t fl = mask_flow(w, n, m, 0.1);
    fin1(fl.mean_distance, "mean_distance"); fin1(fl.entropy, "entropy");
    free(rect); free(sq); free(reach); free(w);
}
static void sw_mask_mha_batch(const int *s) {   // batch, n, heads, d_k
    int batch = s[0], n = s[1], h = s[2], d = s[2] * s[3];
    mha_params_t p;
    if (mha_alloc(&p, d, h) != 0) return;   // swept in sw_multihead
    rng_t rng;
    rng_seed(&rng, 5);
    mha_init(&p, &rng);
    float *x = fb(N3(batch, n, d)), *out = fb(N3(batch, n, d));
    float *w = fb(N3(batch, h, N2(n, n)));
    unsigned char *keep = mb(N2(batch, n)), *am = mb(N2(n, n));
    cr_assert_eq(mask_mha_batch(&p, x, batch, n, keep, am, out, w), 0);
    fin(out, N3(batch, n, d), "out");
    cr_assert_eq(mask_mha_batch(&p, x, batch, n, NULL, NULL, out, NULL), 0);
    free(x); free(out); free(w); free(keep); free(am);
    mha_free(&p);
}
static void sw_kv_cache(const int *s) {   // heads, d_k, capacity, steps
    int h = s[0], d = s[0] * s[1], cap = s[2], steps = s[3];
    (void)kv_macs_cached(d, steps);
    (void)kv_macs_uncached(d, steps);
    (void)kv_bytes_per_token(d, cap);
    long long pg = kv_paged_tokens(steps, cap);
    cr_assert_eq(pg < 0, cap < 1, "kv_paged_tokens = %lld", pg);
    kv_cache_t c;
    int rc = kv_alloc(&c, d, h, cap);
    cr_assert_eq(rc, h < 1 || s[1] < 1 || cap < 1 ? -1 : 0, "kv_alloc = %d", rc);
    mha_params_t p;
    if (rc != 0 || mha_alloc(&p, d, h) != 0) return;
    rng_t rng;
    rng_seed(&rng, 7);
    mha_init(&p, &rng);
    float *x = fb(N1(d)), *out = fb(N1(d)), *w = fb(N2(h, cap));
    for (int t = 0; t < steps; t++) {
        int want = t < cap ? 0 : -1;
        cr_assert_eq(kv_step(&p, &c, x, out, t % 2 ? NULL : w), want);
        fin(out, N1(d), "out");
    }
    kv_reset(&c);
    kv_free(&c);
    kv_free(&c);
    mha_free(&p);
    free(x); free(out); free(w);
}

// --- position/ ------------------------------------------------------------

static void sw_alibi(const int *s) {   // n, d_k, d_v, heads
    int n = s[0], d_k = s[1], d_v = s[2], heads = s[3];
    float *slopes = fb(N1(heads)), *bias = fb(N2(n, n));
    cr_assert_eq(alibi_slopes(slopes, heads), heads < 1 ? -1 : 0);
    fin(slopes, N1(heads), "slopes");
    alibi_bias(bias, n, 0.5f);
    fin(bias, N2(n, n), "bias");
    alibi_bias_symmetric(bias, n, 0.5f);
    fin(bias, N2(n, n), "symmetric bias");
    cr_assert_eq(alibi_slopes_mixed(slopes, heads), heads < 1 ? -1 : 0);
    fin(slopes, N1(heads), "mixed slopes");
    float *q = fb(N2(n, d_k)), *k = fb(N2(n, d_k)), *v = fb(N2(n, d_v));
    float *out = fb(N2(n, d_v)), *w = fb(N2(n, n));
    if (d_k >= 1) {   // "needs d_k >= 1"
        int rc = alibi_attention(q, k, v, 0.5f, out, w, n, d_k, d_v);
        cr_assert_eq(rc, n < 0 || d_v < 0 ? -1 : 0, "alibi_attention = %d", rc);
        fin(out, N2(n, d_v), "out"); fin(w, N2(n, n), "weights");
    }
    free(slopes); free(bias); free(q); free(k); free(v); free(out); free(w);
}
static void sw_learned(const int *s) {   // max_len, d, n
    int max_len = s[0], d = s[1], n = s[2];
    learned_pe_t p;
    int rc = learned_pe_alloc(&p, max_len, d);
    cr_assert_eq(rc, max_len < 1 || d < 1 ? -1 : 0);
    if (rc != 0) return;
    rng_t rng;
    rng_seed(&rng, 11);
    learned_pe_init(&p, &rng, 0.02f);
    int *pos = malloc(N1(n) * sizeof *pos);
    for (size_t i = 0; i < N1(n); i++) pos[i] = (int)i;
    float *out = fb(N2(n, d));
    rc = learned_pe_lookup(&p, pos, n, out);
    cr_assert_eq(rc, n > max_len ? LEARNED_PE_OUT_OF_RANGE : n < 0 ? -1 : 0,
                 "learned_pe_lookup(%d of %d) = %d", n, max_len, rc);
    fin(out, N2(n, d), "out");
    learned_pe_free(&p);
    free(pos); free(out);
}
static void sw_rope(const int *s) {   // n, d (even: 2 s[1]), pos0
    int n = s[0], d = 2 * s[1], pos0 = s[2];
    int bad = d < 0 ? -1 : 0;
    float *theta = fb(N1(d / 2)), *x = fb(N2(n, d)), *r = fb(N2(d, d));
    cr_assert_eq(rope_theta(theta, d, ROPE_BASE), bad);
    cr_assert_eq(rope_theta(theta, d, 0.0), -1);
    cr_assert_eq(rope_apply(x, n, d, pos0, ROPE_BASE), bad || n < 0 ? -1 : 0);
    fin(x, N2(n, d), "x");
    cr_assert_eq(rope_matrix(r, d, pos0, ROPE_BASE), bad);
    fin(r, N2(d, d), "r");
    fin1(rope_decay_bound(d, pos0, ROPE_BASE), "decay_bound");
    cr_assert_eq(rope_apply_scaled(x, n, d, pos0, 0.25, ROPE_BASE),
                 bad || n < 0 ? -1 : 0);
    fin(x, N2(n, d), "x scaled");
    cr_assert_eq(rope_apply_scaled(x, n, d, pos0, NAN, ROPE_BASE), -1);
    cr_assert_eq(rope_apply_half(x, n, d, pos0, ROPE_BASE), bad || n < 0 ? -1 : 0);
    fin(x, N2(n, d), "x half");
    float *sc = fb(N2(n, n));
    cr_assert_eq(rope_scores(x, x, sc, n, n, d, pos0, 0, ROPE_BASE),
                 bad || n < 0 ? -1 : 0);
    fin(sc, N2(n, n), "scores");
    free(sc);
    double nb = rope_ntk_base(ROPE_BASE, d, 2.0);
    double wl = rope_max_wavelength(d, ROPE_BASE);
    cr_assert(d >= 4 ? isfinite(nb) : isnan(nb), "rope_ntk_base(d %d) = %g", d, nb);
    cr_assert(d >= 2 ? isfinite(wl) : isnan(wl), "rope_max_wavelength(d %d) = %g", d,
              wl);
    free(theta); free(x); free(r);
}
static void sw_sinusoidal(const int *s) {   // n, d, pos0
    int n = s[0], d = s[1], pos0 = s[2];
    if (d >= 1) fin1(sinusoidal_freq(n, d, SINUSOIDAL_BASE), "freq");
    float *pe = fb(N2(n, d)), *m = fb(N2(d, d));
    int rc = sinusoidal_table(pe, n, d, pos0, SINUSOIDAL_BASE);
    cr_assert_eq(rc, n < 0 || d < 0 || pos0 < 0 ? -1 : 0);
    fin(pe, N2(n, d), "pe");
    cr_assert_eq(sinusoidal_offset_matrix(m, d, pos0, SINUSOIDAL_BASE), d < 0 ? -1 : 0);
    fin(m, N2(d, d), "m");
    free(pe); free(m);
}

// --- fast/ ----------------------------------------------------------------

static void sw_tiled(const int *s) {   // h, n, m, d (d_k = d_v)
    int h = s[0], n = s[1], m = s[2], d = s[3];
    float *q = fb(N3(h, n, d)), *k = fb(N3(h, m, d)), *v = fb(N3(h, m, d));
    float *out = fb(N3(h, n, d));
    int rc = tiled_attention_forward(q, k, v, out, h, n, m, d, d);
    cr_assert_eq(rc, h < 1 || n < 1 || m < 1 || d < 1 ? -1 : 0);
    fin(out, N3(h, n, d), "out");
    (void)tiled_workspace_bytes(d, d);
    fin1(tiled_exp((float)-n), "exp");
    free(q); free(k); free(v); free(out);
}

static void sw_tiled_lse(const int *s) {   // h, n, m, d (d_k = d_v); both masks
    int h = s[0], n = s[1], m = s[2], d = s[3];
    int bad = h < 1 || n < 1 || m < 1 || d < 1 ? -1 : 0;
    float *q = fb(N3(h, n, d)), *k = fb(N3(h, m, d)), *v = fb(N3(h, m, d));
    float *out = fb(N3(h, n, d)), *lse = fb(N2(h, n)), *dout = fb(N3(h, n, d));
    float *dq = fb(N3(h, n, d)), *dk = fb(N3(h, m, d)), *dv = fb(N3(h, m, d));
    for (int causal = 0; causal <= 1; causal++) {
        const tiled_shape_t shape = {h, n, m, d, d, causal};
        const flash_saved_t fw = {q, k, v, out, lse};
        cr_assert_eq(tiled_attention(q, k, v, out, lse, &shape), bad);
        fin(out, N3(h, n, d), "out");
        fin(lse, N2(h, n), "lse");
        cr_assert_eq(flash_attention_backward(&fw, dout, dq, dk, dv, &shape), bad);
        fin(dq, N3(h, n, d), "dq");
        fin(dk, N3(h, m, d), "dk");
        fin(dv, N3(h, m, d), "dv");
    }
    cr_assert_eq(tiled_attention_causal(q, k, v, out, h, n, m, d, d), bad);
    fin(out, N3(h, n, d), "out");
    fin1(tiled_exp2((float)-n), "exp2");
    fin1(tile_exp2((float)-n), "tile_exp2");
    free(q); free(k); free(v); free(out); free(lse); free(dout);
    free(dq); free(dk); free(dv);
}
static void sw_tile_mm(const int *s) {   // rows, inner, cols (tile_mm: sizes >= 0)
    int r = s[0] < 0 ? 0 : s[0], in = s[1] < 0 ? 0 : s[1], c = s[2] < 0 ? 0 : s[2];
    float *a = fb(N2(r, in)), *b = fb(N2(in, c)), *out = fb(N2(r, c));
    tile_mm(out, a, b, r, in, c, in, c, c, 0);
    tile_mm(out, a, b, r, in, c, in, c, c, 1);
    fin(out, N2(r, c), "c");
    free(a); free(b); free(out);
}
static void sw_rope_rows(const int *s) {   // T, NH, HS (even: 2 s[2])
    int T = s[0], NH = s[1], HS = 2 * s[2];
    int bad = T < 0 || NH < 0 || HS < 0 ? -1 : 0;
    float *x = fb(N3(T, NH, HS)), *dx = fb(N3(T, NH, HS)), *g = fb(N3(T, NH, HS));
    cr_assert_eq(rope_rows_forward(x, T, NH, HS, 3, ROPE_BASE), bad);
    fin(x, N3(T, NH, HS), "x");
    cr_assert_eq(rope_rows_backward(dx, g, T, NH, HS, 3, ROPE_BASE), bad);
    fin(dx, N3(T, NH, HS), "dx");
    free(x); free(dx); free(g);
}

// ---------------------------------------------------------------------------
// the table: which functions each case covers, and how many sizes it sweeps

typedef struct {
    const char *covers;   // space-separated names of the public functions called
    int n_sizes;
    void (*run)(const int *s);
} sweep_t;

// ---------------------------------------------------------------------------
// the graded modules of chapters 1-5 (issue 25)

static void sw_kernels(const int *s) {   // n_q, n_t
    int n_q = s[0], n_t = s[1], bad = n_q < 0 || n_t < 0;
    float *xq = fb(N1(n_q)), *xt = fb(N1(n_t)), *yt = fb(N1(n_t)), *yp = fb(N1(n_q));
    float *w = fb(N2(n_q, n_t));
    cr_assert_eq(kern_nearest_predict(xq, n_q, xt, yt, n_t, yp), bad ? -1 : 0);
    fin(yp, N1(n_q), "y_pred");
    cr_assert_eq(kern_laplace_weights(xq, n_q, xt, n_t, 0.5f, w), bad ? -1 : 0);
    fin(w, N2(n_q, n_t), "w");
    free(xq); free(xt); free(yt); free(yp); free(w);
}
static void sw_bandwidth(const int *s) {   // n_q, n_t
    int n_q = s[0], n_t = s[1];
    float *xq = fb(N1(n_q)), *yq = fb(N1(n_q)), *xt = fb(N1(n_t)), *yt = fb(N1(n_t));
    float *out = fb(N1(n_q));
    cr_assert_eq(bw_loo_predict(xq, yq, n_q, 0.5f, out), n_q < 0 ? -1 : 0);
    fin(out, N1(n_q), "y_loo");
    cr_assert_eq(bw_predict_dh(xq, n_q, xt, yt, n_t, 0.5f, out),
                 n_q < 0 || n_t < 0 ? -1 : 0);
    fin(out, N1(n_q), "dfdh");
    free(xq); free(yq); free(xt); free(yt); free(out);
}
static void sw_logsoftmax(const int *s) {   // n
    int n = s[0];
    float *x = fb(N1(n)), *dy = fb(N1(n)), *dx = fb(N1(n));
    fin1(smgrad_temperature(x, dy, n, 1.5f), "dL/dt");
    fin1(smgrad_entropy(x, dx, n), "entropy");
    fin(dx, N1(n), "dH/dx");
    logsoftmax(x, n);
    fin(x, N1(n), "log softmax");
    logsoftmax_backward(x, dy, dx, n);
    fin(dx, N1(n), "dx");
    free(x); free(dy); free(dx);
}
static void sw_sa_grad(const int *s) {   // n, m (d_model), d
    int n = s[0], m = s[1], d = s[2];
    float *a = fb(N2(n, m)), *g = fb(N2(n, d)), *v = fb(N2(m, d)), *ds = fb(N2(n, m));
    float *x = fb(N2(n, m)), *ann = fb(N2(n, n)), *w = fb(N2(m, d)), *dw = fb(N2(m, d));
    sagrad_values(a, g, v, n, m, d);
    fin(v, N2(m, d), "dv");
    sagrad_scores(a, v, g, ds, n, m, d, 0.5f);
    fin(ds, N2(n, m), "ds");
    sagrad_wv(x, ann, g, dw, n, m, d);
    fin(dw, N2(m, d), "dwv");
    const sagrad_in_t in = {n, m, d, d, 1, x, w, w, w};
    cr_assert_eq(sagrad_wq(&in, g, dw), 0);
    fin(dw, N2(m, d), "dwq");
    free(a); free(g); free(v); free(ds); free(x); free(ann); free(w); free(dw);
}
static void sw_sublayer(const int *s) {   // n, head
    int n = s[0], h = s[1] > 0 ? s[1] : 1, d = 2 * h;
    mha_params_t p;
    ffn_params_t f, gf;
    layernorm_params_t ln, gln;
    cr_assert_eq(mha_alloc(&p, d, h), 0);
    cr_assert_eq(ffn_alloc(&f, d, 3) | ffn_alloc(&gf, d, 3), 0);
    cr_assert_eq(layernorm_alloc(&ln, d) | layernorm_alloc(&gln, d), 0);
    float *x = fb(N2(n, d)), *y = fb(N2(n, d)), *dx = fb(N2(n, d));
    unsigned char *mask = mb(N2(n, n));
    cr_assert_eq(sublayer_prune_head(&p, s[1]), s[1] >= 0 && s[1] < h ? 0 : -1);
    cr_assert_eq(sublayer_prenorm_ffn(&f, &ln, x, y, n), n < 0 ? -1 : 0);
    fin(y, N2(n, d), "ffn y");
    cr_assert_eq(sublayer_prenorm_attn(&p, &ln, x, mask, y, n), n < 0 ? -1 : 0);
    fin(y, N2(n, d), "attn y");
    cr_assert_eq(sublayer_prenorm_ffn_backward(&f, &ln, x, y, dx, &gf, &gln, n),
                 n < 0 ? -1 : 0);
    fin(dx, N2(n, d), "dx");
    mha_free(&p); ffn_free(&f); ffn_free(&gf);
    layernorm_free(&ln); layernorm_free(&gln);
    free(x); free(y); free(dx); free(mask);
}
static void sw_child(const int *s) {   // n, l, c
    int n = s[0], l = s[1], c = s[2];
    unsigned char *mask = mb(N2(n, n));
    int *steps = malloc(N2(n, n) * sizeof *steps);
    cr_assert_eq(child_fixed_mask(mask, n, l, c),
                 n < 0 || l < 1 || c < 0 || c > l ? -1 : 0);
    int missing = child_reach_steps(mask, n, steps);
    cr_assert(n < 0 ? missing == -1 : missing >= 0);
    free(mask); free(steps);
}
static void sw_topk(const int *s) {   // n, m, d, top
    int n = s[0], m = s[1], d = s[2], top = s[3];
    float *q = fb(N2(n, d)), *k = fb(N2(m, d)), *v = fb(N2(m, d)), *out = fb(N2(n, d));
    int bad = top < 1 || n < 0 || m < 0 || d < 0;
    cr_assert_eq(topk_forward(q, k, v, out, n, m, d, d, top), bad ? -1 : 0);
    fin(out, N2(n, d), "out");
    free(q); free(k); free(v); free(out);
}
static void sw_online_merge(const int *s) {   // d_v, count
    int dv = s[0] > 0 ? s[0] : 0, count = s[1];
    double *acc_a = db(N1(dv)), *acc_b = db(N1(dv));
    float *sc = fb(N1(count)), *v = fb(N2(count, dv)), *out = fb(N1(dv));
    online_state_t a, b;
    online_init(&a, acc_a, dv);
    online_init(&b, acc_b, dv);
    online_update(&b, sc, v, count);
    online_merge(&a, &b);
    online_merge(&a, &b);
    online_finish(&a, out);
    fin(out, N1(dv), "out");
    free(acc_a); free(acc_b); free(sc); free(v); free(out);
}

// ---------------------------------------------------------------------------
// data/ (issue 23: the sweep covers every group)

static void sw_beam(const int *s) {   // V, beam, max_len, start
    int v = s[0], beam = s[1], len = s[2], start = s[3], end = v - 1;
    float *logp = fb(N2(v, v));
    for (size_t i = 0; i < N2(v, v); i++) logp[i] = logf(logp[i]);
    int *out = malloc(N1(len) * sizeof *out);
    double score = 1.0;
    int rc = beam_search(logp, v, start, end, beam, len, out, &score);
    if (v < 1 || beam < 1 || len < 1 || start < 0 || start >= v) {
        cr_assert_eq(rc, -1, "beam_search(%d, %d, %d, %d) = %d", v, beam, len, start,
                     rc);
    } else {
        cr_assert(rc >= 1 && rc <= len, "beam_search length %d", rc);
        fin1(score, "score");
        for (int i = 0; i < rc; i++) cr_assert(out[i] >= 0 && out[i] < v);
    }
    rc = beam_viterbi(logp, v, start, end, len, out, &score);
    if (v < 1 || len < 1 || start < 0 || start >= v) {
        cr_assert_eq(rc, -1, "beam_viterbi(%d, %d, %d) = %d", v, len, start, rc);
    } else {
        cr_assert(rc >= 1 && rc <= len, "beam_viterbi length %d", rc);
        fin1(score, "score");
        for (int i = 0; i < rc; i++) cr_assert(out[i] >= 0 && out[i] < v);
    }
    beam_t bs;   // the search by hand: one step from a row of the table
    rc = beam_begin(&bs, v, end, beam, len);
    cr_assert_eq(rc, v < 1 || beam < 1 || len < 1 ? -1 : 0, "beam_begin %d", rc);
    if (rc == 0) {
        beam_step(&bs, logp);
        cr_assert_eq(bs.step, 1);
        cr_assert(bs.alive >= 1 && bs.alive <= beam);
    } else {
        cr_assert_eq(beam_step(&bs, logp), 0);   // zeroed: nothing to step
    }
    cr_assert(beam_end(&bs, out, &score) <= (len > 0 ? 1 : 0));
    cr_assert_null(bs.hist);
    free(logp); free(out);
}
static void sw_bpe(const int *s) {   // text bytes / 4, merges, capacity / 4, token id
    size_t n = s[0] < 0 ? 0 : 4 * (size_t)s[0], cap = s[2] < 0 ? 0 : 4 * (size_t)s[2];
    unsigned char *text = malloc(n), *out = malloc(cap);
    for (size_t i = 0; i < n; i++) text[i] = (unsigned char)"abac"[i % 4];
    bpe_t b;
    int rc = bpe_train(&b, text, n, BPE_BYTES + s[1]);
    cr_assert_eq(rc, s[1] < 0 ? -1 : 0, "bpe_train(%zu, 256 + %d) = %d", n, s[1], rc);
    if (rc == 0) {
        int *tok = malloc((n ? n : 1) * sizeof *tok), len = -1;
        long t = bpe_encode(&b, text, n, tok);
        cr_assert(t >= 0 && (size_t)t <= n && t == b.train_tokens, "T = %ld", t);
        long got = bpe_decode(&b, tok, t, out, cap);
        cr_assert_eq(got, n <= cap ? (long)n : -1, "bpe_decode = %ld", got);
        if (got > 0) cr_assert(memcmp(out, text, n) == 0);
        cr_assert_eq(bpe_decode(&b, tok, -1, out, cap), -1);
        cr_assert_null(bpe_token(&b, -1, &len));
        cr_assert_null(bpe_token(&b, b.vocab, &len));
        cr_assert_not_null(bpe_token(&b, s[3] < 0 ? 0 : s[3], &len));
        cr_assert(len >= 1);
        free(tok);
    }
    bpe_free(&b);
    bpe_free(&b);   // safe twice
    free(text); free(out);
}
static void sw_corpus(const int *s) {   // text bytes / 3, record start, held / 0.5
    static const char pattern[] = "a\n%\nbc\n%\n";
    size_t n = s[0] < 0 ? 0 : 3 * (size_t)s[0], start = s[1] < 0 ? 0 : (size_t)s[1];
    double held = 0.5 * s[2];
    unsigned char *text = malloc(n + 1);
    for (size_t i = 0; i < n; i++) text[i] = (unsigned char)pattern[i % 9];
    uint64_t fnv = corpus_fnv1a64(text, n);
    if (n == 0) cr_assert_eq(fnv, UINT64_C(0xcbf29ce484222325));
    size_t end = corpus_next_record(text, n, start);
    cr_assert(end <= n && (start >= n ? end == n : end > start), "record end %zu", end);
    char path[] = "/tmp/sweep_corpus_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    cr_assert(f && fwrite(text, 1, n, f) == n && fclose(f) == 0);
    corpus_t c, c2;
    cr_assert_eq(corpus_read(&c, path, -1, 0), CORPUS_OK);
    cr_assert(c.n == n && c.fnv == fnv && c.n_records >= (n > 0));
    cr_assert_eq(corpus_read(&c2, path, (long)n, fnv + 1), CORPUS_CHANGED);
    cr_assert_eq(corpus_read(&c2, path, (long)n + 1, fnv), CORPUS_CHANGED);
    cr_assert(c2.text == NULL && c2.n == 0);
    cr_assert_eq(corpus_read(&c2, NULL, -1, 0), CORPUS_BAD_ARG);
    cr_assert_eq(corpus_read(NULL, path, -1, 0), CORPUS_BAD_ARG);
    remove(path);
    cr_assert_eq(corpus_read(&c2, path, -1, 0), CORPUS_MISSING);
    cr_assert_str_neq(corpus_error(s[2]), "");
    cr_assert_str_neq(corpus_error(-s[2] - 1), "");
    corpus_split_t sp;
    int rc = corpus_split(&c, held, (uint64_t)s[1], &sp);
    cr_assert_eq(rc, held < 0.0 || held > 1.0 ? CORPUS_BAD_ARG : CORPUS_OK);
    if (rc == CORPUS_OK)
        cr_assert(sp.n_train + sp.n_held == n &&
                  sp.train_records + sp.held_records == c.n_records);
    corpus_split_free(&sp);
    cr_assert_eq(corpus_split(NULL, 0.5, 1, &sp), CORPUS_BAD_ARG);
    cr_assert_eq(corpus_split(&c, 0.5, 1, NULL), CORPUS_BAD_ARG);
    corpus_split_free(&sp);
    corpus_split_free(&sp);
    corpus_free(&c);
    corpus_free(&c);
    free(text);
}
static void sw_mirror_words(const int *s) {   // a word index or id, a length
    int k = s[0], len = s[1];
    char buf[3], w[3];
    cr_assert_eq(mirror_tgt_of_src(k + 1), k + 3);
    mirror_word_text(k, k & 1, w);
    cr_assert(strlen(w) == (k >= 0 && k < MIRROR_WORDS ? 2u : 1u), "word %d", k);
    mirror_word_text(MIRROR_WORDS - 1 + k, 1, w);
    cr_assert(strlen(w) >= 1);
    cr_assert_not_null(mirror_src_text(k, buf));
    cr_assert_not_null(mirror_tgt_text(k, buf));
    cr_assert_str_eq(mirror_src_text(MIRROR_WORDS + 2 + k * k, buf), "?");
    cr_assert_str_eq(mirror_tgt_text(-k - 1, buf), "?");
    int *src = malloc(N1(len) * sizeof *src), *tgt = malloc(N1(len) * sizeof *tgt);
    for (int i = 0; i < len; i++) src[i] = 1 + i;
    mirror_translate(src, len, tgt);
    for (int i = 0; i < len; i++) cr_assert_eq(tgt[i], src[len - 1 - i] + 2);
    free(src); free(tgt);
}
static void sw_mirror_batches(const int *s) {   // sentences, batch, src_eos
    int n = s[0], b = s[1], eos = s[2] & 1;
    rng_t rng;
    rng_seed(&rng, 3);
    mirror_split_t sp = {0};
    int rc = mirror_split_make(&sp, n, eos, &rng);
    cr_assert_eq(rc, n < 1 ? -1 : 0);
    cr_assert_eq(mirror_feed_count(n, b), n < 1 || b < 1 ? 0 : (n + b - 1) / b);
    if (rc == 0) {
        mirror_batch_t *bb = malloc(sizeof *bb);
        int *idx = malloc(N1(b) * sizeof *idx);
        for (int i = 0; i < b; i++) idx[i] = i % n;
        mirror_batch_fill(bb, &sp, idx, b, eos);
        cr_assert_eq(bb->bt.b, b < 1 ? 0 : b);
        for (int i = 0; i < bb->bt.b * bb->bt.t_len; i++)
            cr_assert(bb->src[i] >= 0 && bb->src[i] <= MIRROR_SRC_EOS);
        int nb = mirror_feed_count(n, b);
        mirror_feed_t feed = {&sp, &sp, b, b, eos, bb};
        for (int k = -1; k <= nb; k++) {
            const s2s_batch_t *bt = mirror_feed_train(&feed, k);
            int want = k < 0 || k >= nb ? 0 : n - k * b < b ? n - k * b : b;
            cr_assert_eq(bt->b, want, "train batch %d of %d: %d", k, nb, bt->b);
            cr_assert_eq(((const s2s_batch_t *)mirror_feed_val(&feed, k))->b, want);
        }
        free(bb); free(idx);
    }
    mirror_split_free(&sp);
    mirror_split_free(&sp);
}
static void sw_ngram(const int *s) {   // T, U, V, bytes
    long T = s[0], U = s[1], bytes = s[3];
    int V = s[2];
    int *train = malloc(N1(s[0]) * sizeof *train);
    int *held = malloc(N1(s[1]) * sizeof *held);
    for (long i = 0; i < T; i++) train[i] = V > 0 ? (int)(i % V) : 0;
    for (long i = 0; i < U; i++) held[i] = V > 0 ? (int)((i * 2) % V) : 0;
    int bad = V < 1 || bytes < 1 || T < 0 || U < 0;
    double u = ngram_unigram_bpb(train, T, held, U, V, bytes);
    double b = ngram_bigram_bpb(train, T, held, U, V, bytes);
    cr_assert(bad ? u == -1.0 && b == -1.0 : u >= 0.0 && b >= 0.0, "%g %g", u, b);
    fin1(u, "unigram"); fin1(b, "bigram");
    if (!bad && U == 0) cr_assert(u == 0.0 && b == 0.0);
    if (U > 0) {
        held[U - 1] = V;   // out of range
        cr_assert_eq(ngram_unigram_bpb(train, T, held, U, V, bytes), -1.0);
        cr_assert_eq(ngram_bigram_bpb(train, T, held, U, V, bytes), -1.0);
    }
    free(train); free(held);
}
static void sw_sampling(const int *s) {   // V, k, p / 0.5
    int v = s[0], k = s[1];
    double p = 0.5 * s[2];
    float *x = fb(N1(v)), *probs = fb(N1(v)), sum = 0.0f;
    int rc = sampling_top_k(x, v, k);
    cr_assert_eq(rc, k < 1 || v < 1 ? -1 : k < v ? k : v, "top_k(%d, %d) = %d", v, k,
                 rc);
    for (int i = 0; i < v; i++) sum += probs[i];
    for (int i = 0; i < v; i++) probs[i] /= sum;
    rc = sampling_top_p(probs, v, p);
    int bad = v < 1 || !(p > 0.0 && p <= 1.0);
    cr_assert(bad ? rc == -1 : rc >= 1 && rc <= v, "top_p(%d, %g) = %d", v, p, rc);
    fin(probs, N1(v), "probs");
    free(x); free(probs);
}

// ---------------------------------------------------------------------------
// train/

static void sw_metrics(const int *s) {   // B, T, V, ignore
    int b = s[0], t = s[1], v = s[2], ignore = s[3];
    int n = b < 0 || t < 0 ? -1 : b * t, count = -7;
    float *logits = fb(N3(b, t, v));
    int *targets = malloc(N2(b, t) * sizeof *targets);
    for (size_t i = 0; i < N2(b, t); i++) targets[i] = (int)(i % 4) - 1;
    double a = metrics_token_accuracy(logits, targets, n, v, ignore, &count);
    cr_assert(a >= 0.0 && a <= 1.0 && count >= 0 && count <= (n > 0 ? n : 0));
    a = metrics_exact_match(logits, targets, b, t, v, ignore, &count);
    cr_assert(a >= 0.0 && a <= 1.0 && count >= 0 && count <= (b > 0 ? b : 0));
    free(logits); free(targets);
}
static void sw_optim(const int *s) {   // P, weight decay / 0.1, mask, clip / 0.5
    size_t n = N1(s[0]);
    float *w = fb(n), *g = fb(n), *m = calloc(n ? n : 1, sizeof *m);
    float *v = calloc(n ? n : 1, sizeof *v);
    unsigned char *mask = mb(n);
    optim_adam_t o = {.lr = 0.01f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f,
                      .weight_decay = 0.1f * s[1], .decay = s[2] & 1 ? mask : NULL,
                      .m = m, .v = v, .n = n};
    optim_adam_step(&o, w, g);
    optim_adam_step(&o, w, g);
    cr_assert_eq(o.step, 2);
    fin(w, n, "w");
    double norm = optim_clip_norm(g, n, 0.5 * s[3]);
    fin1(norm, "norm");
    cr_assert(n > 0 || norm == 0.0);
    fin(g, n, "g");
    free(w); free(g); free(m); free(v); free(mask);
}
static void sw_xent(const int *s) {   // N, V, ignore, eps / 0.5
    int n = s[0], v = s[1], ignore = s[2], count = -7;
    float eps = 0.5f * (float)s[3];
    float *logits = fb(N2(n, v)), *probs = fb(N2(n, v)), *dl = fb(N2(n, v));
    int *targets = malloc(N1(n) * sizeof *targets);
    for (int i = 0; i < n; i++) targets[i] = i % 3 - 1;
    double loss = xent_forward(logits, targets, probs, n, v, ignore, &count);
    fin1(loss, "loss");
    cr_assert(count >= 0 && count <= (n > 0 ? n : 0) && (v > 0 || count == 0));
    fin(probs, N2(n, v), "probs");
    xent_backward(probs, targets, dl, n, v, ignore, 0.5f);
    fin(dl, N2(n, v), "dlogits");
    float mx = -7.0f;   // one row of logits: there is one only if n >= 1
    if (n >= 1 || v < 1) fin1(xent_softmax_row(logits, probs, v, &mx), "row sum");
    fin1(mx, "row max");
    loss = smooth_xent_forward(logits, targets, probs, n, v, ignore, eps, &count);
    if (eps > 1.0f || eps < 0.0f) cr_assert(isnan(loss) && count == 0);
    else fin1(loss, "smoothed loss");
    smooth_xent_backward(probs, targets, dl, n, v, ignore, eps, 0.5f);
    fin(dl, N2(n, v), "smoothed dlogits");
    free(logits); free(probs); free(dl); free(targets);
}

// A model for the trainer: loss = sum_i (w_i - 1)^2 / 2, one token a batch;
// a batch whose index is bad_at counts nothing.
typedef struct {
    const trainer_t *t;
    int bad_at;
} toy_t;
static double toy_forward(void *self, const void *batch, int *count) {
    const toy_t *m = self;
    *count = *(const int *)batch == m->bad_at ? 0 : 1;
    double loss = 0.0;
    for (long i = 0; i < m->t->n; i++)
        loss += 0.5 * (m->t->w[i] - 1.0) * (m->t->w[i] - 1.0);
    return loss;
}
static int toy_backward(void *self, const void *batch, float scale) {
    const toy_t *m = self;
    (void)batch;
    for (long i = 0; i < m->t->n; i++) m->t->g[i] += scale * (m->t->w[i] - 1.0f);
    return 0;
}
static double toy_decode(void *ctx) { return *(const double *)ctx; }
static const int TOY_IDS[8] = {0, 1, 2, 3, 4, 5, 6, 7};
static const void *toy_batch(void *self, int k) {
    (void)self;
    cr_assert(k >= 0 && k < 8, "batch %d", k);
    return &TOY_IDS[k];
}
static int toy_progress_calls;
static void toy_progress(void *ctx, const progress_t *p) {
    (void)ctx;
    cr_assert(p->epoch >= 1 && p->epoch <= p->epochs);
    toy_progress_calls++;
}
static double toy_clock(void) { return 1.0; }

// sizes: P, training batches, epochs, validation batches
static void sw_trainer(const int *s) {
    for (long k = -1; k <= s[1]; k++) {
        fin1(trainer_lr_linear(0.5f, k, s[1], s[3]), "lr_linear");
        fin1(trainer_lr_warmup(0.5f, k, s[1], s[3]), "lr_warmup");
        cr_assert(trainer_lr_warmup(0.5f, k, s[1], s[3]) >= 0.0f);
    }
    trainer_schedule_fn sched[3] = {NULL, trainer_lr_linear, trainer_lr_warmup};
    trainer_config_t cfg = {.epochs = s[2], .lr = 0.1f, .warmup = s[3],
                            .schedule = sched[(s[0] + 1) % 3], .beta1 = 0.9f,
                            .beta2 = 0.99f, .eps = 1e-8f, .weight_decay = 0.01f,
                            .clip = 1.0, .clock = s[3] & 1 ? toy_clock : NULL,
                            .progress = s[0] & 1 ? toy_progress : NULL};
    trainer_t t;
    memset(&t, 0, sizeof t);
    int rc = trainer_init(&t, &cfg, s[0], s[1]);
    int want = s[0] < 1 || s[1] < 1 || s[2] < 1 || s[2] > TRAINER_MAX_EPOCHS ? -1 : 0;
    cr_assert_eq(rc, want, "trainer_init(%d, %d, epochs %d) = %d", s[0], s[1], s[2],
                 rc);
    if (rc == 0) {
        double score = 0.5;
        toy_t toy = {&t, -1};
        trainer_model_t m = {&toy,   toy_forward, toy_backward,
                             s[3] & 1 ? toy_decode : NULL, &score, "toy"};
        trainer_data_t d = {NULL, s[1], s[3], toy_batch, toy_batch};
        rng_t rng;
        rng_seed(&rng, 5);
        cr_assert_eq(trainer_run(&t, &m, &d, &rng), 0);
        fin(t.w, (size_t)t.n, "w");
        for (int e = 0; e < t.epochs_run; e++) {
            fin1(t.train_loss[e], "train loss");
            cr_assert(s[3] < 1 ? isnan(t.val_loss[e]) : isfinite(t.val_loss[e]));
        }
        cr_assert_eq(t.epochs_run, s[2]);
        trainer_write_curve(NULL, &t);   // writes nothing, reads nothing
        FILE *curve = tmpfile();
        cr_assert_not_null(curve);
        trainer_write_curve(curve, &t);
        rewind(curve);
        int lines = 0;
        for (int ch; (ch = fgetc(curve)) != EOF;) lines += ch == '\n';
        fclose(curve);
        cr_assert_eq(lines, t.epochs_run);
        d.n_train = s[1] + 1;
        cr_assert_eq(trainer_run(&t, &m, &d, &rng), -1);
        double vl = trainer_val_loss(&m, &d);
        cr_assert(s[3] < 1 ? isnan(vl) : isfinite(vl), "val loss %g", vl);
        int count = -7;
        toy.bad_at = 0;
        cr_assert_eq(trainer_step(&t, &m, &TOY_IDS[0], &count), -1.0);
        cr_assert_eq(count, 0);
    }
    trainer_free(&t);
    trainer_free(&t);
}

// ---------------------------------------------------------------------------
// models/

// tokens (B, T + 1): ids 0..V-1
static int *ids(int b, int t, int v) {
    int *x = malloc(N2(b, t + 1) * sizeof *x);
    for (size_t i = 0; i < N2(b, t + 1); i++)
        x[i] = v > 0 ? (int)((i * 5 + 1) % (size_t)v) : 0;
    return x;
}

// A GPT of V tokens, C = 4 s1 (2 heads, 1 key/value head), L layers, T_max.
static gpt_config_t gpt_cfg(int v, int s1, int l, int t_max) {
    return (gpt_config_t){.V = v, .C = 4 * s1, .L = l, .NH = 2, .NKV = 1, .F = 3,
                          .B_max = 2, .T_max = t_max, .rope_base = 10000.0};
}
static void gpt_refused(const gpt_config_t *c) {
    float buf[1] = {7.0f};
    unsigned char mask[1] = {7};
    gpt_params_t p;
    rng_t rng;
    rng_seed(&rng, 1);
    cr_assert_eq(gpt_param_count(c), -1);
    gpt_bind(&p, buf, c);
    cr_assert_null(p.wte);
    gpt_init(buf, c, &rng);
    gpt_decay_mask(mask, c);
    cr_assert(buf[0] == 7.0f && mask[0] == 7, "a bad config wrote");
    cr_assert_null(gpt_work_new(c));
    cr_assert_null(gpt_cache_new(c));
    FILE *f = tmpfile();
    cr_assert_eq(gpt_save(f, c, buf), -1);
    fclose(f);
}
static void gpt_decode(const gpt_params_t *p, const gpt_config_t *c, gpt_work_t *w,
                       const int *tok) {
    int T = c->T_max, V = c->V;
    float *full = fb(N1(V)), *step = fb(N1(V));
    cr_assert_eq(gpt_next_logits(p, c, tok, T, w, full), 0);
    fin(full, N1(V), "next logits");
    cr_assert_eq(gpt_next_logits(p, c, tok, 0, w, full), -1);
    cr_assert_eq(gpt_next_logits(p, c, tok, T + 1, w, full), -1);
    gpt_cache_t *k = gpt_cache_new(c);
    cr_assert_not_null(k);
    cr_assert_eq(gpt_cache_step(p, c, k, V, step), -1);
    for (int t = 0; t <= T; t++)
        cr_assert_eq(gpt_cache_step(p, c, k, tok[t < T ? t : 0], step), t < T ? 0 : -1);
    cr_assert_eq(gpt_cache_len(k), T);
    cr_assert(memcmp(step, full, (size_t)V * sizeof *full) == 0, "cache != recompute");
    gpt_cache_reset(k);
    cr_assert_eq(gpt_cache_len(k), 0);
    gpt_cache_free(k);
    gpt_cache_free(NULL);
    free(full); free(step);
}
static void sw_gpt(const int *s) {   // V, C / 4, L, T_max
    gpt_config_t c = gpt_cfg(s[0], s[1], s[2], s[3]);
    int ok = s[0] >= 1 && s[1] >= 1 && s[2] >= 1 && s[2] <= GPT_MAX_LAYERS && s[3] >= 1;
    cr_assert_eq(gpt_config_check(&c), ok ? 0 : -1);
    if (!ok) {
        gpt_refused(&c);
        return;
    }
    long n = gpt_param_count(&c);
    cr_assert(n > 0);
    float *w = fb((size_t)n), *g = calloc((size_t)n, sizeof *g);
    unsigned char *mask = malloc((size_t)n);
    rng_t rng;
    rng_seed(&rng, 19);
    gpt_init(w, &c, &rng);
    fin(w, (size_t)n, "init");
    gpt_decay_mask(mask, &c);
    for (long i = 0; i < n; i++) cr_assert(mask[i] <= 1);
    gpt_model_t m = {c, {0}, {0}, gpt_work_new(&c)};
    cr_assert_not_null(m.work);
    gpt_bind(&m.p, w, &c);
    gpt_bind(&m.g, g, &c);
    int T = c.T_max, *tok = ids(2, T, c.V), count = -7;
    gpt_batch_t bt = {2, T, tok}, other = {1, T, tok};
    double loss = gpt_model_forward(&m, &bt, &count);
    fin1(loss, "loss");
    cr_assert_eq(count, 2 * T);
    fin(gpt_logits(m.work), N3(2, T, c.V), "logits");
    cr_assert_null(gpt_attention(m.work, -1));
    cr_assert_null(gpt_attention(m.work, c.L));
    fin(gpt_attention(m.work, c.L - 1), N3(2, 2, T * T), "attention");
    cr_assert_eq(gpt_model_backward(&m, &other, 1.0f), -1);
    cr_assert_eq(gpt_model_backward(&m, &bt, 1.0f / (float)count), 0);
    fin(g, (size_t)n, "gradient");
    cr_assert_eq(gpt_forward(&m.p, &c, &bt, m.work, &count), loss);
    cr_assert_eq(gpt_backward(&m.p, &m.g, &c, &bt, m.work, 0.5f), 0);
    gpt_decode(&m.p, &c, m.work, tok);
    FILE *f = tmpfile();
    cr_assert_eq(gpt_save(f, &c, w), 0);
    cr_assert_eq(ftell(f), 40 + 4 * n);
    fclose(f);
    gpt_work_free(m.work);
    gpt_work_free(NULL);
    free(w); free(g); free(mask); free(tok);
}
static void sw_gpt_batch(const int *s) {   // B, T, a bad id's position
    gpt_config_t c = gpt_cfg(5, 1, 1, 2);
    long n = gpt_param_count(&c);
    float *w = fb((size_t)n), *g = calloc((size_t)n, sizeof *g);
    gpt_params_t p, gp;
    gpt_bind(&p, w, &c);
    gpt_bind(&gp, g, &c);
    gpt_work_t *wk = gpt_work_new(&c);
    int b = s[0], t = s[1], *tok = ids(b, t, c.V), count = -7;
    gpt_batch_t bt = {b, t, tok};
    cr_assert_eq(gpt_backward(&p, &gp, &c, &bt, wk, 1.0f), -1, "no forward yet");
    int fits = b >= 1 && t >= 1 && b <= c.B_max && t <= c.T_max;
    if (fits && s[2] >= 0 && (size_t)s[2] < N2(b, t + 1)) tok[s[2]] = c.V, fits = 0;
    double loss = gpt_forward(&p, &c, &bt, wk, &count);
    cr_assert(fits ? isfinite(loss) && count == b * t : loss == -1.0 && count == 0,
              "gpt_forward(B %d, T %d) = %g", b, t, loss);
    if (fits) cr_assert_eq(gpt_backward(&p, &gp, &c, &bt, wk, 1.0f), 0);
    fin(g, (size_t)n, "gradient");
    gpt_work_free(wk);
    free(w); free(g); free(tok);
}
static void sw_gpt_sample(const int *s) {   // V, temperature / 0.5, top_k, top_p / 0.5
    int v = s[0];
    float *logits = fb(N1(v)), *scratch = fb(N2(2, v));
    rng_t rng;
    rng_seed(&rng, 23);
    int id = gpt_sample(logits, v, 0.5f * s[1], s[2], 0.5f * s[3], &rng, scratch);
    cr_assert(v < 1 ? id == -1 : id >= 0 && id < v, "gpt_sample(V %d) = %d", v, id);
    free(logits); free(scratch);
}

// A Transformer of Vs = s0, Vt = s0 + 2, d = 2 s1 (2 heads), s2 blocks each side,
// lengths up to s3.
static void sw_transformer(const int *s) {
    tf_config_t c = {.v_src = s[0], .v_tgt = s[0] + 2, .d_model = 2 * s[1],
                     .n_heads = 2, .d_ff = 3, .n_enc = s[2], .n_dec = s[2], .b_max = 2,
                     .t_max = s[3], .u_max = s[3]};
    int ok = s[0] >= 1 && s[1] >= 1 && s[2] >= 1 && s[2] <= TF_MAX_LAYERS && s[3] >= 1;
    cr_assert_eq(tf_config_check(&c), ok ? 0 : -1);
    long n = tf_param_count(&c);
    tf_model_t m = {c, {0}, {0}, tf_work_new(&c)};
    if (!ok) {
        float buf[1] = {7.0f};
        rng_t rng;
        rng_seed(&rng, 1);
        cr_assert_eq(n, -1);
        tf_bind(&m.p, buf, &c);
        cr_assert_null(m.p.emb_src);
        tf_init(buf, &c, &rng);
        cr_assert(buf[0] == 7.0f && m.work == NULL);
        return;
    }
    float *w = fb((size_t)n), *g = calloc((size_t)n, sizeof *g);
    rng_t rng;
    rng_seed(&rng, 29);
    tf_init(w, &c, &rng);
    fin(w, (size_t)n, "init");
    tf_bind(&m.p, w, &c);
    tf_bind(&m.g, g, &c);
    int T = s[3], B = 2, *src = ids(B, T, c.v_src), *tin = ids(B, T, c.v_tgt);
    int *tout = ids(B, T, c.v_tgt), *out = malloc(N2(B, T) * sizeof *out), count = -7;
    unsigned char *mask = mb(N2(B, T));
    for (int i = 0; i < B * T; i++) mask[i] = 1;
    s2s_batch_t bt = {B, T, T, src, mask, tin, tout};
    fin1(tf_model_forward(&m, &bt, &count), "loss");
    cr_assert(count >= 0 && count <= B * T);
    cr_assert_eq(tf_model_backward(&m, &bt, 0.5f), 0);
    fin(g, (size_t)n, "gradient");
    fin(tf_logits(m.work), N3(B, T, c.v_tgt), "logits");
    float *logits = fb(N3(B, T, c.v_tgt)), *cross = fb(N3(B * s[2], 2, T * T));
    cr_assert_eq(tf_greedy(&m.p, &c, src, mask, B, T, out, logits, cross, m.work), 0);
    for (int i = 0; i < B * T; i++) cr_assert(out[i] >= 0 && out[i] < c.v_tgt);
    fin(cross, N3(B * s[2], 2, T * T), "cross");
    cr_assert_eq(tf_greedy(&m.p, &c, src, mask, B + 1, T, out, NULL, NULL, m.work), -1);
    s2s_batch_t big = {B, T + 1, T, src, mask, tin, tout};
    cr_assert_eq(tf_forward(&m.p, &c, &big, m.work, &count), -1.0);
    cr_assert_eq(count, 0);
    tin[0] = c.v_tgt;
    cr_assert_eq(tf_forward(&m.p, &c, &bt, m.work, &count), -1.0);
    tf_work_free(m.work);
    tf_work_free(NULL);
    free(w); free(g); free(src); free(tin); free(tout); free(out); free(mask);
    free(logits); free(cross);
}

// A translation model of Vs = s0, Vt = s0 + 2, E = s1, H = s2, attention width
// A = s3 (0: the baseline without attention); batches (2, 2, 2).
static void sw_seq2seq(const int *s) {
    s2s_config_t c = {.v_src = s[0], .v_tgt = s[0] + 2, .e = s[1], .h = s[2],
                      .a = s[3], .attention = s[3] != 0, .b_max = 2, .t_max = 2,
                      .u_max = 2};
    int ok = s[0] >= 1 && s[1] >= 1 && s[2] >= 1 && s[3] >= 0;
    cr_assert_eq(s2s_config_check(&c), ok ? 0 : -1);
    long n = s2s_param_count(&c);
    s2s_model_t m = {c, {0}, {0}, s2s_work_new(&c)};
    if (!ok) {
        float buf[1] = {7.0f};
        rng_t rng;
        rng_seed(&rng, 1);
        cr_assert_eq(n, -1);
        s2s_bind(&m.p, buf, &c);
        cr_assert_null(m.p.emb_src);
        s2s_init(buf, &c, &rng);
        cr_assert(buf[0] == 7.0f && m.work == NULL);
        return;
    }
    float *w = fb((size_t)n), *g = calloc((size_t)n, sizeof *g);
    rng_t rng;
    rng_seed(&rng, 31);
    s2s_init(w, &c, &rng);
    fin(w, (size_t)n, "init");
    s2s_bind(&m.p, w, &c);
    s2s_bind(&m.g, g, &c);
    cr_assert_eq(m.p.w_a == NULL, !c.attention);
    int *src = ids(2, 2, c.v_src), *tin = ids(2, 2, c.v_tgt);
    int *tout = ids(2, 2, c.v_tgt);
    int out[4], count = -7;
    unsigned char mask[4] = {1, 1, 1, 0};
    float alpha[8];
    s2s_batch_t bt = {2, 2, 2, src, mask, tin, tout};
    s2s_batch_t big = {3, 2, 2, src, mask, tin, tout};
    fin1(s2s_model_forward(&m, &bt, &count), "loss");
    cr_assert(count >= 0 && count <= 4);
    cr_assert_eq(s2s_model_backward(&m, &bt, 0.5f), 0);
    s2s_backward(&m.p, &m.g, &c, &big, m.work, 1.0f);   // refused: nothing written
    fin(g, (size_t)n, "gradient");
    cr_assert_eq(s2s_forward(&m.p, &c, &big, m.work, &count), -1.0);
    cr_assert_eq(s2s_greedy(&m.p, &c, src, mask, 2, 2, out, alpha, m.work), 0);
    for (int i = 0; i < 4; i++) cr_assert(out[i] >= 0 && out[i] < c.v_tgt);
    fin(alpha, 8, "alpha");
    cr_assert_eq(s2s_greedy(&m.p, &c, src, mask, 2, 3, out, NULL, m.work), -1);
    double score[2];
    cr_assert_eq(s2s_beam(&m.p, &c, src, mask, 1, 2, 2, out, score, m.work), 0);
    for (int i = 0; i < 2; i++) cr_assert(out[i] >= 0 && out[i] < c.v_tgt);
    fin1(score[0], "beam score");
    cr_assert_eq(s2s_beam(&m.p, &c, src, mask, 1, 2, 3, out, score, m.work), -1);
    cr_assert_eq(s2s_beam(&m.p, &c, src, mask, 0, 2, 1, out, score, m.work), -1);
    s2s_work_free(m.work);
    s2s_work_free(NULL);
    free(w); free(g); free(src); free(tin); free(tout);
}

static void sw_views(const int *s) {   // two takes
    float *buf = fb(N1(s[0]) + N1(s[1]));
    views_t v = {buf, 0}, count = {NULL, 0};
    cr_assert_eq(views_take(&v, s[0]), buf);
    cr_assert_eq(views_take(&v, s[1]), buf + N1(s[0]));
    cr_assert_null(views_take(&count, s[0]));
    cr_assert_null(views_take(&count, s[1]));
    cr_assert(v.used == (long)(N1(s[0]) + N1(s[1])) && count.used == v.used);
    free(buf);
}

static const sweep_t SWEEP[] = {
        {"mat_mul", 3, sw_mat_mul},
        {"mat_mul_bt", 3, sw_mat_mul_bt},
        {"mat_transpose", 2, sw_mat_transpose},
        {"mat_scale", 1, sw_mat_scale},
        {"mat_add", 1, sw_mat_add},
        {"mat_add_row", 2, sw_mat_add_row},
        {"mat_dot mat_norm", 1, sw_mat_dot},
        {"mat_max_abs_diff", 1, sw_mat_max_abs_diff},
        {"rng_seed rng_next rng_uniform rng_normal rng_fill_normal rng_fill_uniform", 1,
         sw_rng},
        {"stats_of", 1, sw_stats_of},
        {"stats_histogram", 2, sw_stats_histogram},
        {"attention_scores attention_combine attention_forward", 4, sw_attention},
        {"attn_row_entropy attn_mean_entropy attn_row_sum_error attn_max_weight "
         "attn_min_weight attn_diag_strength attn_locality attn_sparsity",
         3, sw_attn_stats},
        {"dropout_forward dropout_backward", 1, sw_dropout},
        {"geom_row_norms geom_cosine_matrix geom_angle_degrees", 3, sw_geometry},
        {"nw_gaussian_kernel nw_weights nw_predict", 3, sw_kernel_regression},
        {"pattern_measure pattern_classify pattern_name", 1, sw_patterns},
        {"score_dot score_scaled_dot score_cosine score_additive score_hard", 4,
         sw_scoring},
        {"self_attn_simple self_attn_alloc self_attn_free self_attn_init "
         "self_attn_forward",
         4, sw_self_attention},
        {"softmax_naive softmax softmax_rows softmax_rows_temp softmax_rows_masked "
         "softmax_jacobian softmax_backward",
         2, sw_softmax},
        {"spectral_power_iteration spectral_max_abs_row_sum", 3, sw_spectral},
        {"layernorm_forward layernorm_alloc layernorm_free layernorm_add_norm", 2,
         sw_layernorm},
        {"linear_forward linear_backward linear_init_uniform linear_init_normal "
         "linear_init_xavier",
         3, sw_linear},
        {"ffn_alloc ffn_free ffn_init ffn_param_count ffn_forward", 3, sw_ffn},
        {"mha_split_heads mha_concat_heads mha_alloc mha_free mha_init mha_param_count "
         "mha_forward mha_forward_loop",
         4, sw_multihead},
        {"encoder_block_alloc decoder_block_alloc encoder_block_free "
         "decoder_block_free "
         "encoder_block_init decoder_block_init encoder_block_param_count "
         "decoder_block_param_count encoder_block_forward decoder_block_forward",
         4, sw_blocks},
        {"attention_backward mat_sq_dist", 4, sw_attention_backward},
        {"layernorm_backward layernorm_scratch_doubles layernorm_backward_ws "
         "ffn_backward",
         3, sw_layers_backward},
        {"mha_cache_floats mha_cache_bind mha_forward_cache mha_backward", 4,
         sw_mha_train},
        {"qk_forward qk_backward", 3, sw_qk_train},
        {"blk_encoder_tensors blk_decoder_tensors blk_encoder_zero blk_decoder_zero "
         "blk_encoder_cache_floats blk_decoder_cache_floats blk_encoder_cache_bind "
         "blk_decoder_cache_bind blk_encoder_forward blk_encoder_backward "
         "blk_decoder_forward blk_decoder_backward",
         3, sw_block_train},
        {"hard_forward", 4, sw_hard},
        {"linattn_feature linattn_forward_quadratic linattn_forward linattn_causal "
         "linattn_work_bytes",
         4, sw_linear_attention},
        {"online_init online_update online_finish online_softmax", 3, sw_online_state},
        {"online_attention online_work_bytes", 4, sw_online_attention},
        {"relpos_index relpos_forward", 4, sw_relative},
        {"sparse_visible sparse_build sparse_from_mask sparse_to_mask sparse_free "
         "sparse_pattern_bytes sparse_work_bytes sparse_forward sparse_two_step_reach",
         4, sw_sparse},
        {"mask_causal mask_full mask_band mask_random mask_key_padding mask_padding "
         "mask_and mask_invert mask_to_additive mask_multiply_rows mask_round_half "
         "mask_window_causal mask_prefix_lm",
         3, sw_mask_builders},
        {"mask_stats mask_reach mask_flow mask_is_transitive mask_min_layers", 3,
         sw_mask_measures},
        {"mask_mha_batch", 4, sw_mask_mha_batch},
        {"kv_alloc kv_free kv_reset kv_step kv_macs_cached kv_macs_uncached "
         "kv_bytes_per_token kv_paged_tokens",
         4, sw_kv_cache},
        {"alibi_slopes alibi_bias alibi_attention alibi_bias_symmetric "
         "alibi_slopes_mixed",
         4, sw_alibi},
        {"learned_pe_alloc learned_pe_free learned_pe_init learned_pe_lookup", 3,
         sw_learned},
        {"rope_theta rope_apply rope_matrix rope_decay_bound rope_apply_scaled "
         "rope_ntk_base rope_max_wavelength rope_apply_half rope_scores",
         3, sw_rope},
        {"sinusoidal_freq sinusoidal_table sinusoidal_offset_matrix", 3, sw_sinusoidal},
        {"tiled_exp tiled_workspace_bytes tiled_attention_forward", 4, sw_tiled},
        {"tiled_attention tiled_attention_causal flash_attention_backward tiled_exp2 "
         "tile_exp2",
         4, sw_tiled_lse},
        {"tile_mm", 3, sw_tile_mm},
        {"rope_rows_forward rope_rows_backward", 3, sw_rope_rows},
        {"rmsnorm_forward rmsnorm_backward", 2, sw_rmsnorm},
        {"swiglu_param_count swiglu_forward swiglu_scratch_floats swiglu_backward", 3,
         sw_swiglu},
        {"gqa_check gqa_forward gqa_scratch_floats gqa_backward gqa_kv_bytes_per_token",
         4, sw_gqa},
        {"tied_embed_forward tied_embed_backward tied_logits_forward "
         "tied_logits_backward",
         3, sw_tied_embed},
        {"tmat_mul_acc tmat_mul_bt_acc tmat_at_mul_acc tmat_set_rows tmat_sum_rows_acc",
         3, sw_tmat},
        {"tanh_fast", 1, sw_tanh_fast},
        {"expf_n tanh_fast_n sigmoid_n", 1, sw_fmath_rows},
        {"embedding_forward embedding_backward embedding_pos_forward "
         "embedding_pos_backward",
         3, sw_embedding},
        {"gru_param_count gru_bind gru_cell_forward gru_cell_backward gru_seq_forward "
         "gru_seq_backward bigru_forward bigru_backward",
         4, sw_gru},
        {"addattn_keys_forward addattn_keys_backward addattn_forward addattn_backward",
         4, sw_additive},
        {"luong_general_scores luong_general_attend luong_general_backward", 3,
         sw_luong},
        {"geglu_gelu geglu_forward geglu_backward", 1, sw_geglu},
        {"kern_nearest_predict kern_laplace_weights", 2, sw_kernels},
        {"bw_loo_predict bw_predict_dh", 2, sw_bandwidth},
        {"logsoftmax logsoftmax_backward smgrad_temperature smgrad_entropy", 1,
         sw_logsoftmax},
        {"sagrad_values sagrad_scores sagrad_wv sagrad_wq", 3, sw_sa_grad},
        {"sublayer_prune_head sublayer_prenorm_ffn sublayer_prenorm_attn "
         "sublayer_prenorm_ffn_backward",
         2, sw_sublayer},
        {"child_fixed_mask child_reach_steps", 3, sw_child},
        {"topk_forward", 4, sw_topk},
        {"online_merge", 2, sw_online_merge},
        {"beam_search beam_viterbi beam_begin beam_step beam_end", 4, sw_beam},
        {"bpe_train bpe_free bpe_encode bpe_decode bpe_token", 4, sw_bpe},
        {"corpus_fnv1a64 corpus_next_record corpus_read corpus_error corpus_free "
         "corpus_split corpus_split_free",
         3, sw_corpus},
        {"mirror_tgt_of_src mirror_translate mirror_word_text mirror_src_text "
         "mirror_tgt_text",
         2, sw_mirror_words},
        {"mirror_split_make mirror_split_free mirror_batch_fill mirror_feed_count "
         "mirror_feed_train mirror_feed_val",
         3, sw_mirror_batches},
        {"ngram_unigram_bpb ngram_bigram_bpb", 4, sw_ngram},
        {"sampling_top_k sampling_top_p", 3, sw_sampling},
        {"metrics_token_accuracy metrics_exact_match", 4, sw_metrics},
        {"optim_adam_step optim_clip_norm", 4, sw_optim},
        {"xent_forward xent_backward smooth_xent_forward smooth_xent_backward "
         "xent_softmax_row", 4,
         sw_xent},
        {"trainer_lr_linear trainer_lr_warmup trainer_init trainer_free trainer_step "
         "trainer_val_loss trainer_run trainer_write_curve",
         4, sw_trainer},
        {"gpt_config_check gpt_param_count gpt_bind gpt_init gpt_decay_mask "
         "gpt_work_new gpt_work_free gpt_forward gpt_backward gpt_logits gpt_attention "
         "gpt_next_logits gpt_cache_new gpt_cache_free gpt_cache_reset gpt_cache_len "
         "gpt_cache_step gpt_model_forward gpt_model_backward gpt_save",
         4, sw_gpt},
        {"gpt_forward gpt_backward", 3, sw_gpt_batch},
        {"gpt_sample", 4, sw_gpt_sample},
        {"tf_config_check tf_param_count tf_bind tf_init tf_work_new tf_work_free "
         "tf_forward tf_backward tf_logits tf_greedy tf_model_forward "
         "tf_model_backward",
         4, sw_transformer},
        {"s2s_config_check s2s_param_count s2s_bind s2s_init s2s_work_new "
         "s2s_work_free "
         "s2s_forward s2s_backward s2s_greedy s2s_beam s2s_model_forward "
         "s2s_model_backward",
         4, sw_seq2seq},
        {"views_take", 2, sw_views},
};
enum { N_SWEEP = sizeof SWEEP / sizeof SWEEP[0] };

static const int SIZES[] = {-1, 0, 1, 2, 3};
enum { N_SIZES = sizeof SIZES / sizeof SIZES[0] };

// Case f at every combination of sizes; returns the number of calls.
static long run_case(int f) {
    long calls = 0;
    int combos = 1;
    for (int k = 0; k < SWEEP[f].n_sizes; k++) combos *= N_SIZES;
    for (int c = 0; c < combos; c++) {
        int s[4] = {0, 0, 0, 0}, rest = c;
        for (int k = 0; k < SWEEP[f].n_sizes; k++, rest /= N_SIZES)
            s[k] = SIZES[rest % N_SIZES];
        g_name = SWEEP[f].covers;
        g_s = s;
        SWEEP[f].run(s);
        calls++;
    }
    return calls;
}

// One test per case, so that a crash (a sanitizer aborts the process) names
// its functions and the other cases still run.
#define SWEEP_TEST(i)                                                          \
    Test(sweep, case_##i) {                                                    \
        if (i < N_SWEEP) cr_assert(run_case(i) > 0, "%s", SWEEP[i].covers);    \
    }
SWEEP_TEST(0) SWEEP_TEST(1) SWEEP_TEST(2) SWEEP_TEST(3) SWEEP_TEST(4) SWEEP_TEST(5)
SWEEP_TEST(6) SWEEP_TEST(7) SWEEP_TEST(8) SWEEP_TEST(9) SWEEP_TEST(10) SWEEP_TEST(11)
SWEEP_TEST(12) SWEEP_TEST(13) SWEEP_TEST(14) SWEEP_TEST(15) SWEEP_TEST(16)
SWEEP_TEST(17) SWEEP_TEST(18) SWEEP_TEST(19) SWEEP_TEST(20) SWEEP_TEST(21)
SWEEP_TEST(22) SWEEP_TEST(23) SWEEP_TEST(24) SWEEP_TEST(25) SWEEP_TEST(26)
SWEEP_TEST(27) SWEEP_TEST(28) SWEEP_TEST(29) SWEEP_TEST(30) SWEEP_TEST(31)
SWEEP_TEST(32) SWEEP_TEST(33) SWEEP_TEST(34) SWEEP_TEST(35) SWEEP_TEST(36)
SWEEP_TEST(37) SWEEP_TEST(38) SWEEP_TEST(39) SWEEP_TEST(40) SWEEP_TEST(41)
SWEEP_TEST(42) SWEEP_TEST(43) SWEEP_TEST(44) SWEEP_TEST(45) SWEEP_TEST(46)
SWEEP_TEST(47) SWEEP_TEST(48) SWEEP_TEST(49) SWEEP_TEST(50) SWEEP_TEST(51)
SWEEP_TEST(52) SWEEP_TEST(53) SWEEP_TEST(54) SWEEP_TEST(55) SWEEP_TEST(56)
SWEEP_TEST(57) SWEEP_TEST(58) SWEEP_TEST(59) SWEEP_TEST(60)
SWEEP_TEST(61) SWEEP_TEST(62) SWEEP_TEST(63) SWEEP_TEST(64) SWEEP_TEST(65)
SWEEP_TEST(66) SWEEP_TEST(67) SWEEP_TEST(68) SWEEP_TEST(69) SWEEP_TEST(70)
SWEEP_TEST(71) SWEEP_TEST(72) SWEEP_TEST(73) SWEEP_TEST(74) SWEEP_TEST(75)
SWEEP_TEST(76) SWEEP_TEST(77) SWEEP_TEST(78) SWEEP_TEST(79) SWEEP_TEST(80)
SWEEP_TEST(81) SWEEP_TEST(82) SWEEP_TEST(83) SWEEP_TEST(84) SWEEP_TEST(85)
SWEEP_TEST(86) SWEEP_TEST(87) SWEEP_TEST(88) SWEEP_TEST(89) SWEEP_TEST(90)
SWEEP_TEST(91) SWEEP_TEST(92) SWEEP_TEST(93) SWEEP_TEST(94) SWEEP_TEST(95)
SWEEP_TEST(96) SWEEP_TEST(97) SWEEP_TEST(98) SWEEP_TEST(99)

Test(sweep, table_fits_the_tests) {
    cr_assert(N_SWEEP <= 100, "add SWEEP_TEST lines up to %d", N_SWEEP - 1);
}

// Every function declared in the headers of the swept groups is covered by
// one of the cases above. (Run from the repository root.)
Test(sweep, covers_every_public_function) {
    glob_t g;
    cr_assert_eq(glob("code/lib/*/*.h", 0, NULL, &g), 0,
                 "run from the repository root");
    char missing[2048] = "";
    int found = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        // The groups whose every function has a case: all but program/, whose
        // cli and report have their own tests (test_cli.c, test_report.c,
        // test_program.c) and print or exit by design.
        static const char *const SWEPT[] = {
                "/base/",  "/attention/", "/layers/", "/variants/", "/masks/",
                "/position/", "/fast/", "/data/", "/train/", "/models/"};
        int swept = 0;
        for (size_t k = 0; k < sizeof SWEPT / sizeof SWEPT[0]; k++)
            swept |= strstr(g.gl_pathv[i], SWEPT[k]) != NULL;
        if (!swept) continue;
        FILE *h = fopen(g.gl_pathv[i], "r");
        cr_assert(h);
        char line[512];
        while (fgets(line, sizeof line, h)) {
            // a declaration starts in column 0 with its type (int, FILE, ...);
            // a static inline helper (base/v4f.h's loads) is each including
            // file's own, not a function of the library
            int letter = (line[0] >= 'a' && line[0] <= 'z') ||
                         (line[0] >= 'A' && line[0] <= 'Z');
            if (!letter ||
                strncmp(line, "typedef", 7) == 0 || strncmp(line, "enum", 4) == 0 ||
                strncmp(line, "struct", 6) == 0 || strncmp(line, "static", 6) == 0)
                continue;
            char *paren = strchr(line, '(');
            if (!paren) continue;
            char *end = paren, *start = paren;
            while (start > line &&
                   (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                    (start[-1] >= '0' && start[-1] <= '9')))
                start--;
            char name[96];
            snprintf(name, sizeof name, "%.*s", (int)(end - start), start);
            if (name[0] == '\0') continue;   // a '(' not after a name
            found++;
            int covered = 0;
            for (int f = 0; f < N_SWEEP && !covered; f++) {
                const char *p = SWEEP[f].covers;
                size_t len = strlen(name);
                while ((p = strstr(p, name)) != NULL) {
                    if ((p == SWEEP[f].covers || p[-1] == ' ') &&
                        (p[len] == ' ' || p[len] == '\0')) {
                        covered = 1;
                        break;
                    }
                    p += len;
                }
            }
            if (!covered && strlen(missing) + strlen(name) + 2 < sizeof missing) {
                strcat(missing, " ");
                strcat(missing, name);
            }
        }
        fclose(h);
    }
    globfree(&g);
    cr_assert(found > 50, "found only %d functions in the headers", found);
    cr_assert_str_empty(missing, "not in the sweep:%s", missing);
}

// ---------------------------------------------------------------------------
// out-of-range parameters: refused, outputs untouched

static const float BAD_T[] = {0.0f, -1.0f, NAN, INFINITY, -0.0f};

Test(sweep, softmax_rows_temp_refuses_bad_temperatures) {
    for (size_t i = 0; i < sizeof BAD_T / sizeof BAD_T[0]; i++) {
        float x[4] = {1, 2, 3, 4};
        cr_assert_eq(softmax_rows_temp(x, 2, 2, BAD_T[i]), -1, "t = %g", BAD_T[i]);
        cr_assert_eq(x[0], 1.0f);
        cr_assert_eq(x[3], 4.0f);
    }
}

Test(sweep, dropout_refuses_p_outside_0_1) {
    const float bad[] = {-0.1f, 1.5f, NAN, INFINITY, -INFINITY};
    rng_t rng;
    rng_seed(&rng, 1);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        float x[3] = {1, 2, 3}, y[3] = {7, 7, 7};
        unsigned char keep[3] = {1, 1, 1};
        rng_t before = rng;
        cr_assert_eq(dropout_forward(x, y, keep, 3, bad[i], &rng), -1, "p = %g",
                     bad[i]);
        cr_assert_eq(y[0], 7.0f);
        cr_assert_eq(rng.state, before.state, "a refused call draws nothing");
        cr_assert_eq(dropout_backward(x, keep, y, 3, bad[i]), -1);
        cr_assert_eq(y[2], 7.0f);
    }
}

Test(sweep, kernel_width_must_be_positive) {
    cr_assert(isnan(nw_gaussian_kernel(0.5, 0.0)));
    cr_assert(isnan(nw_gaussian_kernel(0.5, -1.0)));
    cr_assert(isnan(nw_gaussian_kernel(0.5, NAN)));
}

Test(sweep, histogram_refuses_empty_or_reversed_ranges) {
    const float x[3] = {0.1f, 0.5f, 0.9f};
    int counts[2] = {-7, -7};
    cr_assert_eq(stats_histogram(x, 3, 0.0, 1.0, 0, counts), -1);
    cr_assert_eq(stats_histogram(x, 3, 0.0, 1.0, -2, counts), -1);
    cr_assert_eq(stats_histogram(x, 3, 0.5, 0.5, 2, counts), -1);
    cr_assert_eq(stats_histogram(x, 3, 1.0, 0.0, 2, counts), -1);
    cr_assert_eq(stats_histogram(x, 3, NAN, 1.0, 2, counts), -1);
    cr_assert_eq(stats_histogram(x, 3, 0.0, INFINITY, 2, counts), -1);
    cr_assert_eq(counts[0], -7);
    cr_assert_eq(stats_histogram(x, 3, 0.0, 1.0, 2, counts), 3);
}

Test(sweep, layernorm_refuses_bad_eps) {
    float x[2] = {1, 2}, g[2] = {1, 1}, b[2] = {0, 0}, y[2] = {7, 7};
    cr_assert_eq(layernorm_forward(x, g, b, y, 1, 2, -1e-5f), -1);
    cr_assert_eq(layernorm_forward(x, g, b, y, 1, 2, NAN), -1);
    cr_assert_eq(layernorm_forward(x, g, b, y, 1, 2, INFINITY), -1);
    cr_assert_eq(y[0], 7.0f);
}

Test(sweep, power_iteration_refuses_a_zero_start) {
    const float a[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    double x[2] = {0.0, 0.0}, lambda = 9.0;
    cr_assert_eq(spectral_power_iteration(a, 2, 0, x, 100, 1e-9, &lambda), -2);
    cr_assert_eq(x[0], 0.0);
    cr_assert_eq(lambda, 0.0);
    double y[2] = {NAN, 1.0};
    cr_assert_eq(spectral_power_iteration(a, 2, 0, y, 100, 1e-9, &lambda), -2);
}

// ---------------------------------------------------------------------------
// the defined values at the edges (CONTRIBUTING.md)

Test(sweep, empty_reductions_are_zero_not_nan) {
    float one = 0.25f;
    stats_t s = stats_of(&one, 0);
    cr_assert(s.mean == 0 && s.std == 0 && s.min == 0 && s.max == 0);
    s = stats_of(&one, 1);
    cr_assert(s.mean == 0.25 && s.std == 0 && s.min == 0.25 && s.max == 0.25);
    cr_assert_eq(attn_max_weight(&one, 0, 5), 0.0);
    cr_assert_eq(attn_min_weight(&one, 5, 0), 0.0);
    cr_assert_eq(attn_mean_entropy(&one, 0, 1), 0.0);
    cr_assert_eq(attn_diag_strength(&one, 0), 0.0);
    cr_assert_eq(attn_locality(&one, 0, 1, 1), 0.0);
    cr_assert_eq(attn_sparsity(&one, 0, 1, 0.5f), 0.0);
    cr_assert_eq(score_scaled_dot(&one, &one, 0), 0.0f);
}

Test(sweep, zero_width_scores_are_zero) {
    float q[1] = {1}, k[2] = {1, 1}, scores[2] = {7, 7};
    attention_scores(q, k, scores, 1, 2, 0);
    cr_assert_eq(scores[0], 0.0f);
    cr_assert_eq(scores[1], 0.0f);
}

Test(sweep, softmax_of_one_entry_is_one) {
    float x[1] = {-123.0f};
    softmax(x, 1);
    cr_assert_eq(x[0], 1.0f);
    float y[1] = {42.0f};
    cr_assert_eq(softmax_rows_temp(y, 1, 1, 0.1f), 0);
    cr_assert_eq(y[0], 1.0f);
}

// ---------------------------------------------------------------------------
// what the sweep of data/, train/ and models/ found (issue 23), one test each

Test(sweep, xent_of_zero_classes_reads_nothing) {
    float logits[1] = {1.0f}, probs[1] = {7.0f};
    int t[2] = {0, 0}, count = -1;
    cr_assert_eq(xent_forward(logits, t, probs, 2, 0, -1, &count), 0.0);
    cr_assert_eq(count, 0);
    cr_assert_eq(probs[0], 7.0f);
}

Test(sweep, learning_rate_outside_the_run_is_zero) {
    cr_assert_eq(trainer_lr_linear(0.5f, 0, 0, 0), 0.0f);
    cr_assert_eq(trainer_lr_warmup(0.5f, 0, 0, 0), 0.0f);    // was 0/0
    cr_assert_eq(trainer_lr_warmup(0.5f, 3, 3, 3), 0.0f);    // was 0/0
    cr_assert_eq(trainer_lr_warmup(0.5f, -1, 4, 0), 0.0f);
    cr_assert_eq(trainer_lr_warmup(0.5f, 0, 4, 0), 0.5f);    // no warm-up: the peak
}

Test(sweep, mirror_words_and_feeds_out_of_range) {
    char w[3] = "xx";
    mirror_word_text(-1, 0, w);                              // read vow[-1]
    cr_assert_str_eq(w, "?");
    mirror_word_text(MIRROR_WORDS, 1, w);
    cr_assert_str_eq(w, "?");
    rng_t rng;
    rng_seed(&rng, 1);
    mirror_split_t sp;
    cr_assert_eq(mirror_split_make(&sp, 3, 0, &rng), 0);
    mirror_batch_t *bb = malloc(sizeof *bb);
    mirror_feed_t f = {&sp, &sp, 2, 2, 0, bb};
    cr_assert_eq(((const s2s_batch_t *)mirror_feed_train(&f, -1))->b, 0);  // order[-2]
    cr_assert_eq(((const s2s_batch_t *)mirror_feed_val(&f, 1))->b, 1);
    free(bb);
    mirror_split_free(&sp);
}

Test(sweep, models_refuse_bad_configs_and_empty_calls) {
    gpt_config_t g = {.V = 5, .C = 4, .L = 1, .NH = 0, .NKV = 1, .F = 3, .B_max = 1,
                      .T_max = 1, .rope_base = 1e4};
    gpt_params_t gp;
    float buf[1] = {7.0f};
    gpt_bind(&gp, buf, &g);                                  // was C / 0
    cr_assert_null(gp.wte);
    float logits[1] = {1.0f};
    cr_assert_eq(gpt_sample(logits, 0, 0.0f, 0, 1.0f, NULL, NULL), -1);   // was 0
    tf_config_t t = {.v_src = 3, .v_tgt = 3, .d_model = 4, .n_heads = 0, .d_ff = 2,
                     .n_enc = 1, .n_dec = 1, .b_max = 1, .t_max = 1, .u_max = 1};
    tf_params_t tp;
    tf_bind(&tp, buf, &t);                                   // was d / 0
    cr_assert_null(tp.emb_src);
    s2s_config_t s = {.v_src = 3, .v_tgt = 3, .e = 0, .h = 2, .b_max = 1, .t_max = 1,
                      .u_max = 1};
    cr_assert_eq(s2s_param_count(&s), -1);                   // was a count for E = 0
    cr_assert_null(s2s_work_new(&s));
    g.NH = 2;
    gpt_work_t *w = gpt_work_new(&g);
    gpt_params_t p = {0};
    gpt_batch_t empty = {0, 0, NULL};
    cr_assert_eq(gpt_backward(&p, &p, &g, &empty, w, 1.0f), -1);  // no forward
    gpt_work_free(w);
}
