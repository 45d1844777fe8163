// driver.c -- runs library functions on inputs sent by test_reference.py.
//
// The PyTorch reference tests (tests/reference/test_reference.py) generate the
// inputs, send them here, and compare what the library returns with PyTorch.
// This program knows nothing about the expected answers: it only unpacks a
// case, calls one library function, and sends the outputs back.
//
// Protocol, stdin -> stdout, one case after another until end of input. All
// binary numbers are raw little-endian (the byte order of every machine the
// book is built on).
//
//   request   one text line
//               NAME NI NR NIN NOUT  I_1..I_NI  INLEN_1..INLEN_NIN
//               OUTLEN_1..OUTLEN_NOUT
//             then NR float64 real parameters, then the NIN input arrays as
//             float32 (INLEN_k numbers each; length 0 = absent, e.g. no mask).
//   response  int32 the function's status (its return code, or 0 for void),
//             then the NOUT output arrays as float32 (OUTLEN_k numbers each).
//
// Outputs start as NaN, so a value the function forgot to write shows up.
// A write past the end of an output array, an unknown NAME, or a malformed
// request stops the driver with one line on stderr and exit status 2.
//
// ADDING A FUNCTION: write a FN(name) { ... } wrapper (unpack with I, R, IN,
// MASK, OUT; return the function's status) in the chapter's fns_chNN.c (see
// driver.h) and add ENTRY(name) to its table. The matching Python entry goes
// into TABLE in cases_chNN.py.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "attention/attention.h"
#include "attention/attn_stats.h"
#include "layers/block.h"
#include "attention/dropout.h"
#include "layers/ffn.h"
#include "attention/geometry.h"
#include "attention/kernel_regression.h"
#include "layers/layernorm.h"
#include "base/linear.h"
#include "base/mat.h"
#include "layers/multihead.h"
#include "attention/patterns.h"
#include "base/rng.h"
#include "attention/scoring.h"
#include "attention/self_attention.h"
#include "attention/softmax.h"
#include "attention/spectral.h"
#include "base/stats.h"

static const uint32_t GUARD_BITS = 0x7fc0dea1u;   // a NaN nobody computes


void die(const call *c, const char *what) {
    fprintf(stderr, "refdriver: %s: %s\n", c ? c->name : "request", what);
    exit(2);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) die(NULL, "out of memory");
    return p;
}

void *scratch(call *c, size_t bytes) {
    if (c->n_scratch == MAX_SCRATCH) die(c, "too many scratch buffers");
    return c->scratch[c->n_scratch++] = xmalloc(bytes);
}

// Checked accessors used by the wrappers.
long arg_i(const call *c, int k) {
    if (k >= c->ni) die(c, "missing integer parameter");
    return c->i[k];
}
double arg_r(const call *c, int k) {
    if (k >= c->nr) die(c, "missing real parameter");
    return c->r[k];
}
float *arg_in(const call *c, int k) {
    if (k >= c->nin) die(c, "missing input array");
    return c->in_len[k] ? c->in[k] : NULL;
}
float *arg_out(const call *c, int k) {
    if (k >= c->nout) die(c, "missing output array");
    return c->out[k];
}

// Input k as an unsigned char mask (nonzero = 1 = visible); NULL if absent.
unsigned char *arg_mask(call *c, int k) {
    const float *f = arg_in(c, k);
    if (!f) return NULL;
    unsigned char *m = scratch(c, (size_t)c->in_len[k]);
    for (long j = 0; j < c->in_len[k]; j++) m[j] = f[j] != 0.0f;
    return m;
}

// Output k starts as a copy of input k_in: for in-place functions.
float *copy_in(call *c, int k_out, int k_in) {
    if (!arg_in(c, k_in) || c->in_len[k_in] != c->out_len[k_out])
        die(c, "copy_in: lengths differ");
    memcpy(arg_out(c, k_out), c->in[k_in], (size_t)c->in_len[k_in] * sizeof(float));
    return c->out[k_out];
}

// Output k for an unsigned char result: a scratch buffer copied out as floats
// by put_bytes() afterwards.
unsigned char *bytes_for(call *c, int k) {
    arg_out(c, k);
    return scratch(c, (size_t)c->out_len[k]);
}
void put_bytes(call *c, int k, const unsigned char *b) {
    for (long j = 0; j < c->out_len[k]; j++) c->out[k][j] = (float)b[j];
}


// ===========================================================================
// The wrappers, chapter by chapter. Each unpacks one case and calls the library.

// --- mat.h (used everywhere) ---------------------------------------------------

FN(mat_mul) { mat_mul(IN(0), IN(1), OUT(0), I(0), I(1), I(2)); return 0; }
FN(mat_mul_bt) { mat_mul_bt(IN(0), IN(1), OUT(0), I(0), I(1), I(2)); return 0; }
FN(mat_transpose) { mat_transpose(IN(0), OUT(0), I(0), I(1)); return 0; }
FN(mat_scale) { mat_scale(copy_in(c, 0, 0), I(0), (float)R(0)); return 0; }
FN(mat_add) { mat_add(copy_in(c, 0, 0), IN(1), I(0)); return 0; }
FN(mat_add_row) { mat_add_row(copy_in(c, 0, 0), IN(1), I(0), I(1)); return 0; }
FN(mat_dot) { OUT(0)[0] = (float)mat_dot(IN(0), IN(1), I(0)); return 0; }
FN(mat_norm) { OUT(0)[0] = (float)mat_norm(IN(0), I(0)); return 0; }

// --- stats.h ---------------------------------------------------------------------

FN(stats_of) {
    stats_t s = stats_of(IN(0), I(0));
    float *o = OUT(0);
    o[0] = (float)s.mean, o[1] = (float)s.std, o[2] = (float)s.min, o[3] = (float)s.max;
    return 0;
}
FN(stats_histogram) {   // out: the bins counts, then the number counted
    int bins = I(1), *counts = scratch(c, (size_t)bins * sizeof(int));
    int counted = stats_histogram(IN(0), I(0), R(0), R(1), bins, counts);
    for (int b = 0; b < bins; b++) OUT(0)[b] = (float)counts[b];
    OUT(0)[bins] = (float)counted;
    return 0;
}

// --- chapter 1: scoring.h, kernel_regression.h, geometry.h ----------------------

// q (n, d), k (n, d) -> out (n,): the score of every row pair.
FN(score_dot) {
    for (int r = 0; r < I(0); r++)
        OUT(0)[r] = score_dot(IN(0) + r * I(1), IN(1) + r * I(1), I(1));
    return 0;
}
FN(score_scaled_dot) {
    for (int r = 0; r < I(0); r++)
        OUT(0)[r] = score_scaled_dot(IN(0) + r * I(1), IN(1) + r * I(1), I(1));
    return 0;
}
FN(score_cosine) {
    for (int r = 0; r < I(0); r++)
        OUT(0)[r] = score_cosine(IN(0) + r * I(1), IN(1) + r * I(1), I(1));
    return 0;
}
// ints n, d_q, d_k, d_h; q (n, d_q), k (n, d_k), w_q (d_h, d_q), w_k (d_h, d_k), v
FN(score_additive) {
    additive_params_t p = {.w_q = IN(2), .w_k = IN(3), .v = IN(4),
                         .d_q = I(1), .d_k = I(2), .d_h = I(3)};
    for (int r = 0; r < I(0); r++)
        OUT(0)[r] = score_additive(&p, IN(0) + r * I(1), IN(1) + r * I(2));
    return 0;
}
FN(score_hard) {   // every row of scores (n, m)
    for (int r = 0; r < I(0); r++)
        score_hard(IN(0) + r * I(1), OUT(0) + r * I(1), I(1));
    return 0;
}
FN(nw_gaussian_kernel) {
    for (int j = 0; j < I(0); j++) OUT(0)[j] = (float)nw_gaussian_kernel(IN(0)[j], R(0));
    return 0;
}
FN(nw_weights) { return nw_weights(IN(0), I(0), IN(1), I(1), (float)R(0), OUT(0)); }
FN(nw_predict) { nw_predict(IN(0), IN(1), OUT(0), I(0), I(1)); return 0; }
FN(geom_row_norms) { geom_row_norms(IN(0), OUT(0), I(0), I(1)); return 0; }
FN(geom_cosine_matrix) { geom_cosine_matrix(IN(0), IN(1), OUT(0), I(0), I(1), I(2)); return 0; }
FN(geom_angle_degrees) {
    for (int j = 0; j < I(0); j++) OUT(0)[j] = (float)geom_angle_degrees(IN(0)[j]);
    return 0;
}

// --- chapter 2: softmax.h, attention.h, attn_stats.h, dropout.h, spectral.h ------

FN(softmax_naive) { softmax_naive(copy_in(c, 0, 0), I(0)); return 0; }
FN(softmax) { softmax(copy_in(c, 0, 0), I(0)); return 0; }
FN(softmax_rows) { softmax_rows(copy_in(c, 0, 0), I(0), I(1)); return 0; }
FN(softmax_rows_temp) {
    softmax_rows_temp(copy_in(c, 0, 0), I(0), I(1), (float)R(0));
    return 0;
}
FN(softmax_rows_masked) {
    softmax_rows_masked(copy_in(c, 0, 0), MASK(1), I(0), I(1));
    return 0;
}
FN(softmax_jacobian) { softmax_jacobian(IN(0), OUT(0), I(0)); return 0; }
FN(softmax_backward) { softmax_backward(IN(0), IN(1), OUT(0), I(0)); return 0; }

FN(attention_scores) {
    attention_scores(IN(0), IN(1), OUT(0), I(0), I(1), I(2));
    return 0;
}
FN(attention_combine) {
    attention_combine(IN(0), IN(1), OUT(0), I(0), I(1), I(2));
    return 0;
}
// ints n, m, d_k, d_v; q, k, v, mask -> out, weights
FN(attention_forward) {
    attention_forward(IN(0), IN(1), IN(2), MASK(3), OUT(0), OUT(1), I(0), I(1), I(2),
                      I(3));
    return 0;
}

FN(attn_row_entropy) { OUT(0)[0] = (float)attn_row_entropy(IN(0), I(0)); return 0; }
FN(attn_mean_entropy) {
    OUT(0)[0] = (float)attn_mean_entropy(IN(0), I(0), I(1));
    return 0;
}
FN(attn_row_sum_error) {
    OUT(0)[0] = (float)attn_row_sum_error(IN(0), I(0), I(1));
    return 0;
}
FN(attn_max_weight) { OUT(0)[0] = (float)attn_max_weight(IN(0), I(0), I(1)); return 0; }
FN(attn_min_weight) { OUT(0)[0] = (float)attn_min_weight(IN(0), I(0), I(1)); return 0; }
FN(attn_diag_strength) { OUT(0)[0] = (float)attn_diag_strength(IN(0), I(0)); return 0; }
FN(attn_locality) {
    OUT(0)[0] = (float)attn_locality(IN(0), I(0), I(1), I(2));
    return 0;
}
FN(attn_sparsity) {
    OUT(0)[0] = (float)attn_sparsity(IN(0), I(0), I(1), (float)R(0));
    return 0;
}

// ints n, reps, seed; real p; x (n,) -> y (reps, n), keep (reps, n): reps
// consecutive draws from one generator, as in training.
FN(dropout_forward) {
    int n = I(0), reps = I(1);
    rng_t rng;
    rng_seed(&rng, (uint64_t)arg_i(c, 2));
    unsigned char *keep = bytes_for(c, 1);
    for (int r = 0; r < reps; r++)
        dropout_forward(IN(0), OUT(0) + (size_t)r * n, keep + (size_t)r * n, n,
                        (float)R(0), &rng);
    put_bytes(c, 1, keep);
    return 0;
}
FN(dropout_backward) {
    dropout_backward(IN(0), MASK(1), OUT(0), I(0), (float)R(0));
    return 0;
}

// ints n, left, max_iter; real tol; a (n, n), x0 (n,) -> lambda (1,), x (n,);
// status = iterations used (-1: no convergence)
FN(spectral_power_iteration) {
    int n = I(0);
    double *x = scratch(c, (size_t)n * sizeof(double)), lambda;
    for (int j = 0; j < n; j++) x[j] = IN(1)[j];
    int it = spectral_power_iteration(IN(0), n, I(1), x, I(2), R(0), &lambda);
    OUT(0)[0] = (float)lambda;
    for (int j = 0; j < n; j++) OUT(1)[j] = (float)x[j];
    return it;
}
FN(spectral_max_abs_row_sum) { OUT(0)[0] = (float)spectral_max_abs_row_sum(IN(0), I(0)); return 0; }

// --- chapter 3: linear.h, self_attention.h, patterns.h ---------------------------

FN(linear_forward) {
    linear_forward(IN(0), IN(1), IN(2), OUT(0), I(0), I(1), I(2));
    return 0;
}
// x, w, dy, and starting values dx0, dw0, db0 (the gradients accumulate)
FN(linear_backward) {
    linear_backward(IN(0), IN(1), IN(2), copy_in(c, 0, 3), copy_in(c, 1, 4),
                    copy_in(c, 2, 5), I(0), I(1), I(2));
    return 0;
}
FN(linear_init_uniform) {   // ints d_in, d_out, seed; real bound
    rng_t rng;
    rng_seed(&rng, (uint64_t)arg_i(c, 2));
    linear_init_uniform(&rng, OUT(0), I(0), I(1), (float)R(0));
    return 0;
}
FN(linear_init_normal) {   // ints d_in, d_out, seed; real std
    rng_t rng;
    rng_seed(&rng, (uint64_t)arg_i(c, 2));
    linear_init_normal(&rng, OUT(0), I(0), I(1), (float)R(0));
    return 0;
}
FN(linear_init_xavier) {   // ints d_in, d_out, seed
    rng_t rng;
    rng_seed(&rng, (uint64_t)arg_i(c, 2));
    linear_init_xavier(&rng, OUT(0), I(0), I(1));
    return 0;
}
FN(self_attn_simple) {   // ints n, d; x, mask -> out, weights
    self_attn_simple(IN(0), MASK(1), OUT(0), OUT(1), I(0), I(1));
    return 0;
}
// ints n, d_model, d_k, d_v; x, w_q, w_k, w_v, b_q, b_k, b_v, mask
//   -> q, k, v, weights, out
FN(self_attn_forward) {
    self_attn_params_t p = {.d_model = I(1), .d_k = I(2), .d_v = I(3),
                          .w_q = IN(1), .w_k = IN(2), .w_v = IN(3),
                          .b_q = IN(4), .b_k = IN(5), .b_v = IN(6)};
    self_attn_forward(&p, IN(0), MASK(7), OUT(0), OUT(1), OUT(2), OUT(3), OUT(4), I(0));
    return 0;
}
FN(pattern_measure) {   // out: locality, diag, sparsity, entropy, entropy_ratio, max
    pattern_stats_t s;
    pattern_measure(IN(0), I(0), &s);
    float *o = OUT(0);
    o[0] = (float)s.locality, o[1] = (float)s.diag, o[2] = (float)s.sparsity;
    o[3] = (float)s.entropy, o[4] = (float)s.entropy_ratio, o[5] = (float)s.max_weight;
    return 0;
}

// --- chapter 4: multihead.h, layernorm.h, ffn.h, block.h -------------------------

FN(mha_split_heads) { mha_split_heads(IN(0), OUT(0), I(0), I(1), I(2)); return 0; }
FN(mha_concat_heads) { mha_concat_heads(IN(0), OUT(0), I(0), I(1), I(2)); return 0; }

// Inputs k..k+4 as multi-head weights W_Q, W_K, W_V, W_O, b_O.
mha_params_t mha_from(call *c, int k, int d_model, int n_heads) {
    return (mha_params_t){.d_model = d_model, .n_heads = n_heads,
                        .d_k = d_model / n_heads, .w_q = IN(k), .w_k = IN(k + 1),
                        .w_v = IN(k + 2), .w_o = IN(k + 3), .b_o = IN(k + 4)};
}
// ints n, m, d_model, h; xq, xkv, W_Q, W_K, W_V, W_O, b_O, mask -> out, weights
FN(mha_forward) {
    mha_params_t p = mha_from(c, 2, I(2), I(3));
    return mha_forward(&p, IN(0), I(0), IN(1), I(1), MASK(7), OUT(0), OUT(1));
}
FN(mha_forward_loop) {
    mha_params_t p = mha_from(c, 2, I(2), I(3));
    return mha_forward_loop(&p, IN(0), I(0), IN(1), I(1), MASK(7), OUT(0), OUT(1));
}
FN(mha_param_count) {
    mha_params_t p = {.d_model = I(0), .n_heads = I(1), .d_k = I(0) / I(1)};
    OUT(0)[0] = (float)mha_param_count(&p);
    return 0;
}
FN(layernorm_forward) {   // ints n, d; real eps; x, gamma, beta -> y
    layernorm_forward(IN(0), IN(1), IN(2), OUT(0), I(0), I(1), (float)R(0));
    return 0;
}
FN(layernorm_add_norm) {   // ints n, d; x, sub, gamma, beta -> y
    layernorm_params_t ln = {.d = I(1), .gamma = IN(2), .beta = IN(3)};
    layernorm_add_norm(IN(0), IN(1), &ln, OUT(0), I(0));
    return 0;
}
// Inputs k..k+3 as FFN weights W_1, b_1, W_2, b_2.
ffn_params_t ffn_from(call *c, int k, int d_model, int d_ff) {
    return (ffn_params_t){.d_model = d_model, .d_ff = d_ff, .w1 = IN(k), .b1 = IN(k + 1),
                        .w2 = IN(k + 2), .b2 = IN(k + 3)};
}
FN(ffn_forward) {   // ints n, d_model, d_ff; x, W_1, b_1, W_2, b_2 -> hidden, y
    ffn_params_t p = ffn_from(c, 1, I(1), I(2));
    ffn_forward(&p, IN(0), OUT(0), OUT(1), I(0));
    return 0;
}
FN(ffn_param_count) {
    ffn_params_t p = {.d_model = I(0), .d_ff = I(1)};
    OUT(0)[0] = (float)ffn_param_count(&p);
    return 0;
}
// ints d_model, h, d_ff -> the number of parameters
FN(encoder_block_param_count) {
    encoder_block_t b = {.attn = {.d_model = I(0), .n_heads = I(1), .d_k = I(0) / I(1)},
                       .ffn = {.d_model = I(0), .d_ff = I(2)}};
    OUT(0)[0] = (float)encoder_block_param_count(&b);
    return 0;
}
FN(decoder_block_param_count) {
    mha_params_t attn = {.d_model = I(0), .n_heads = I(1), .d_k = I(0) / I(1)};
    decoder_block_t b = {.self_attn = attn, .cross_attn = attn,
                       .ffn = {.d_model = I(0), .d_ff = I(2)}};
    OUT(0)[0] = (float)decoder_block_param_count(&b);
    return 0;
}
layernorm_params_t ln_from(call *c, int k, int d) {
    return (layernorm_params_t){.d = d, .gamma = IN(k), .beta = IN(k + 1)};
}
// ints n, d_model, h, d_ff; x, attention (5), norm1 (2), ffn (4), norm2 (2), mask
//   -> y, weights
FN(encoder_block_forward) {
    int d = I(1);
    encoder_block_t b = {.attn = mha_from(c, 1, d, I(2)), .norm1 = ln_from(c, 6, d),
                       .ffn = ffn_from(c, 8, d, I(3)), .norm2 = ln_from(c, 12, d)};
    return encoder_block_forward(&b, IN(0), I(0), MASK(14), OUT(0), OUT(1));
}
// ints n, m, d_model, h, d_ff; x, enc, self-attention (5), norm1 (2),
// cross-attention (5), norm2 (2), ffn (4), norm3 (2), self_mask, cross_mask
//   -> y, self_w, cross_w
FN(decoder_block_forward) {
    int d = I(2);
    decoder_block_t b = {.self_attn = mha_from(c, 2, d, I(3)), .norm1 = ln_from(c, 7, d),
                       .cross_attn = mha_from(c, 9, d, I(3)),
                       .norm2 = ln_from(c, 14, d), .ffn = ffn_from(c, 16, d, I(4)),
                       .norm3 = ln_from(c, 20, d)};
    return decoder_block_forward(&b, IN(0), I(0), IN(1), I(1), MASK(22), MASK(23),
                                 OUT(0), OUT(1), OUT(2));
}

// ===========================================================================
// THE TABLE: name (as sent by test_reference.py) -> wrapper.

static const ref_entry REF_core[] = {
    // mat.h, stats.h
    ENTRY(mat_mul), ENTRY(mat_mul_bt), ENTRY(mat_transpose), ENTRY(mat_scale),
    ENTRY(mat_add), ENTRY(mat_add_row), ENTRY(mat_dot), ENTRY(mat_norm),
    ENTRY(stats_of), ENTRY(stats_histogram),
    // chapter 1
    ENTRY(score_dot), ENTRY(score_scaled_dot), ENTRY(score_cosine),
    ENTRY(score_additive), ENTRY(score_hard), ENTRY(nw_gaussian_kernel),
    ENTRY(nw_weights), ENTRY(nw_predict), ENTRY(geom_row_norms), ENTRY(geom_cosine_matrix),
    ENTRY(geom_angle_degrees),
    // chapter 2
    ENTRY(softmax_naive), ENTRY(softmax), ENTRY(softmax_rows), ENTRY(softmax_rows_temp),
    ENTRY(softmax_rows_masked), ENTRY(softmax_jacobian), ENTRY(softmax_backward),
    ENTRY(attention_scores), ENTRY(attention_combine), ENTRY(attention_forward),
    ENTRY(attn_row_entropy), ENTRY(attn_mean_entropy), ENTRY(attn_row_sum_error),
    ENTRY(attn_max_weight), ENTRY(attn_min_weight), ENTRY(attn_diag_strength),
    ENTRY(attn_locality), ENTRY(attn_sparsity), ENTRY(dropout_forward),
    ENTRY(dropout_backward), ENTRY(spectral_power_iteration), ENTRY(spectral_max_abs_row_sum),
    // chapter 3
    ENTRY(linear_forward), ENTRY(linear_backward), ENTRY(linear_init_uniform),
    ENTRY(linear_init_normal), ENTRY(linear_init_xavier), ENTRY(self_attn_simple),
    ENTRY(self_attn_forward), ENTRY(pattern_measure),
    // chapter 4
    ENTRY(mha_split_heads), ENTRY(mha_concat_heads), ENTRY(mha_forward),
    ENTRY(mha_forward_loop), ENTRY(mha_param_count), ENTRY(layernorm_forward),
    ENTRY(layernorm_add_norm), ENTRY(ffn_forward), ENTRY(ffn_param_count),
    ENTRY(encoder_block_forward), ENTRY(decoder_block_forward),
    ENTRY(encoder_block_param_count), ENTRY(decoder_block_param_count),
    {0},
};

// REF_TABLES: REF_core, then one table per tests/reference/fns_*.c (generated).
#include "ref_tables.h"

// ===========================================================================
// The loop: read a case, run it, write the answer.

static void read_exact(call *c, void *buf, size_t bytes) {
    if (bytes && fread(buf, 1, bytes, stdin) != bytes) die(c, "short read");
}

static void write_exact(const void *buf, size_t bytes) {
    if (bytes && fwrite(buf, 1, bytes, stdout) != bytes) die(NULL, "write failed");
}

static int read_count(call *c, int max) {
    long v;
    if (scanf("%ld", &v) != 1 || v < 0 || v > max) die(c, "bad count in header");
    return (int)v;
}

static long read_len(call *c) {
    long v;
    if (scanf("%ld", &v) != 1 || v < 0 || v > (1L << 30)) die(c, "bad array length");
    return v;
}

int main(void) {
    char name[64];
    while (scanf("%63s", name) == 1) {
        call c = {.name = name};
        int (*run)(call *) = NULL;
        for (const ref_entry *const *t = REF_TABLES; *t && !run; t++)
            for (const ref_entry *e = *t; e->name && !run; e++)
                if (strcmp(e->name, name) == 0) run = e->run;
        if (!run) die(&c, "no such function in the driver's TABLE");
        c.ni = read_count(&c, MAX_ARGS);
        c.nr = read_count(&c, MAX_ARGS);
        c.nin = read_count(&c, MAX_ARGS);
        c.nout = read_count(&c, MAX_ARGS);
        for (int k = 0; k < c.ni; k++)
            if (scanf("%ld", &c.i[k]) != 1) die(&c, "bad integer parameter");
        for (int k = 0; k < c.nin; k++) c.in_len[k] = read_len(&c);
        for (int k = 0; k < c.nout; k++) c.out_len[k] = read_len(&c);
        if (getchar() != '\n') die(&c, "header line does not end after its numbers");

        read_exact(&c, c.r, (size_t)c.nr * sizeof(double));
        for (int k = 0; k < c.nin; k++) {
            c.in[k] = xmalloc((size_t)c.in_len[k] * sizeof(float));
            read_exact(&c, c.in[k], (size_t)c.in_len[k] * sizeof(float));
        }
        for (int k = 0; k < c.nout; k++) {
            size_t len = (size_t)c.out_len[k];
            c.out[k] = xmalloc((len + GUARD) * sizeof(float));
            uint32_t nan_bits = 0x7fc00000u;
            for (size_t j = 0; j < len; j++) memcpy(&c.out[k][j], &nan_bits, 4);
            for (size_t j = len; j < len + GUARD; j++)
                memcpy(&c.out[k][j], &GUARD_BITS, 4);
        }

        int32_t status = run(&c);

        for (int k = 0; k < c.nout; k++)
            for (long j = c.out_len[k]; j < c.out_len[k] + GUARD; j++)
                if (memcmp(&c.out[k][j], &GUARD_BITS, 4) != 0)
                    die(&c, "wrote past the end of an output array");
        write_exact(&status, sizeof status);
        for (int k = 0; k < c.nout; k++)
            write_exact(c.out[k], (size_t)c.out_len[k] * sizeof(float));
        for (int k = 0; k < c.nin; k++) free(c.in[k]);
        for (int k = 0; k < c.nout; k++) free(c.out[k]);
        for (int k = 0; k < c.n_scratch; k++) free(c.scratch[k]);
    }
    if (!feof(stdin)) die(NULL, "malformed request");
    return fflush(stdout) == 0 ? 0 : 2;
}
