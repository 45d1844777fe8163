// ch04_multi_head.c -- chapter 4: multi-head attention and the Transformer block.
//
// Splits and concatenates heads by index arithmetic; checks the fused forward
// pass against a loop over independent heads; counts parameters and FLOPs;
// looks at what heads attend to (random heads, and hand-planted ones that
// mimic patterns found in trained models); runs the d_model = 512, 8-head
// demonstration; and takes one encoder and one decoder block apart: residual
// connection, layer normalisation, feed-forward network, causal mask.
//
// --seq-len, --d-model and --heads size the small walk-through (fused vs loop,
// parameter counts, random heads). The d_model = 512 demonstration, the blocks
// and the planted heads have fixed sizes so the book can quote them.

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attn_stats.h"
#include "layers/block.h"
#include "program/program.h"
#include "layers/ffn.h"
#include "layers/layernorm.h"
#include "base/linear.h"
#include "base/mat.h"
#include "layers/multihead.h"
#include "program/report.h"
#include "base/rng.h"
#include "base/stats.h"
#include "program/xalloc.h"

static const char *PROG = "ch04_multi_head";

// Fixed sizes: the 512-wide demonstration and blocks (Vaswani et al.'s base
// model), and the planted heads.
enum { BIG_D = 512, BIG_H = 8, BIG_FF = 2048, BIG_N = 8, BATCH = 2, TGT_N = 6 };
enum { PL_N = 8, PL_D = 64, PL_H = 8, PL_DK = PL_D / PL_H };

// Everything the sections share, allocated once in main.
typedef struct {
    int n, d, h;           // the small walk-through: --seq-len, --d-model, --heads
    mha_params_t small;      // (d, h) random Xavier weights
    float *x_small;        // (n, d) random tokens
    mha_params_t planted;    // (PL_D, PL_H) hand-set query/key weights
    float *x_planted;      // (PL_N, PL_D)
    encoder_block_t enc;     // 512 wide, 8 heads, d_ff 2048
    decoder_block_t dec;
    float *x_big;          // (BATCH, BIG_N, BIG_D) random tokens
    float *y_big;          // (BATCH, BIG_N, BIG_D) multi-head outputs
    float *w_big;          // (BATCH, BIG_H, BIG_N, BIG_N) their attention weights
    float *tgt;            // (TGT_N, BIG_D) random target tokens for the decoder
} model_t;

// ---------------------------------------------------------------------------
// small helpers

// Matrix-multiply FLOPs (2 per multiply-add) of multi-head attention with n
// queries and m keys; independent of the number of heads.
static double flops_mha(double n, double m, double d) {
    return 2 * n * d * d            // Q = x W_Q
           + 2 * 2 * m * d * d      // K, V
           + 2 * n * m * d          // Q K^T, all heads together
           + 2 * n * m * d          // weights V
           + 2 * n * d * d;         // W_O
}

static double flops_ffn(double n, double d, double d_ff) {
    return 2 * 2 * n * d * d_ff;    // x W_1 and hidden W_2
}

// ---------------------------------------------------------------------------
// configuration

static void section_config(report_t *r, const model_t *md, unsigned long long seed) {
    report_section(r, "configuration");
    printf("sequence length n    %3d\n", md->n);
    printf("model width d_model  %3d\n", md->d);
    printf("heads h              %3d\n", md->h);
    printf("head width d_k       %3d  (= d_model / h)\n", md->d / md->h);
    printf("seed                 %3llu\n", seed);
    report_value(r, "cfg_n", "%.0f", md->n);
    report_value(r, "cfg_d", "%.0f", md->d);
    report_value(r, "cfg_h", "%.0f", md->h);
    report_value(r, "cfg_dk", "%.0f", md->d / md->h);
}

// ---------------------------------------------------------------------------
// split and concat on a tiny matrix whose entries name their position

static void print_flat(const char *label, const float *a, int size) {
    printf("%s", label);
    for (int i = 0; i < size; i++) printf(" %2.0f", a[i]);
    printf("\n");
}

static void section_split(report_t *r) {
    enum { N = 3, H = 2, DK = 3, D = H * DK };
    float x[N * D], heads[H * N * DK], back[N * D];
    for (int i = 0; i < N; i++)
        for (int c = 0; c < D; c++) x[i * D + c] = (float)(10 * (i + 1) + c);

    report_section(r, "split and concat");
    printf("x (n = %d, d_model = %d), entry (i, c) = 10 (i + 1) + c:\n", N, D);
    report_print_matrix(x, N, D, 4, 0, NULL, NULL);
    mha_split_heads(x, heads, N, H, DK);
    printf("split into h = %d heads of d_k = %d: heads (%d, %d, %d)\n", H, DK, H, N,
           DK);
    for (int h = 0; h < H; h++) {   // heads are named from 1, C indices count from 0
        printf("head %d = heads[%d]:\n", h + 1, h);
        report_print_matrix(heads + h * N * DK, N, DK, 4, 0, NULL, NULL);
    }
    print_flat("x in memory:    ", x, N * D);
    print_flat("heads in memory:", heads, H * N * DK);
    mha_concat_heads(heads, back, N, H, DK);
    double diff = mat_max_abs_diff(x, back, N * D);
    printf("x[1][4] = %.0f is heads[1][1][1] = %.0f\n", x[1 * D + 4],
           heads[(1 * N + 1) * DK + 1]);
    report_check(r, "concat(split(x)) == x, max |difference|", diff, 0.0);
    report_value(r, "split_diff", "%.0f", diff);
    report_value(r, "split_n", "%.0f", N);      // for the memory-layout diagram
    report_value(r, "split_h", "%.0f", H);
    report_value(r, "split_dk", "%.0f", DK);
}

// ---------------------------------------------------------------------------
// Xavier initialisation: the bounds, and why they matter

static void xavier_row(const char *name, const float *w, int fan_in, int fan_out) {
    double a = sqrt(6.0 / (fan_in + fan_out));
    stats_t s = stats_of(w, fan_in * fan_out);
    printf("%-16s %6d %7d %8.4f %8.4f %8.4f %7.4f %8.4f\n", name, fan_in, fan_out, a,
           s.min, s.max, s.std, a / sqrt(3.0));
}

// Variance of x W_Q, and the entropy and max weight of the attention rows of
// multi-head attention with parameters p over the BATCH sequences of x_big.
static void init_effect(const mha_params_t *p, const float *x_big, double *var_q,
                        double *entropy, double *max_w) {
    int rows = BATCH * BIG_N;
    float *q = xfloats(PROG, (size_t)rows * BIG_D);
    float *out = xfloats(PROG, BIG_N * BIG_D);
    float *w = xfloats(PROG, (size_t)BIG_H * BIG_N * BIG_N);
    linear_forward(x_big, p->w_q, NULL, q, rows, BIG_D, BIG_D);
    stats_t sq = stats_of(q, rows * BIG_D);
    *var_q = sq.std * sq.std;
    double ent = 0.0, mx = 0.0;
    for (int b = 0; b < BATCH; b++) {
        const float *x = x_big + (size_t)b * BIG_N * BIG_D;
        xok(PROG, mha_forward(p, x, BIG_N, x, BIG_N, NULL, out, w), "mha_forward");
        for (int i = 0; i < BIG_H * BIG_N; i++) {
            ent += attn_row_entropy(w + i * BIG_N, BIG_N);
            mx += attn_max_weight(w + i * BIG_N, 1, BIG_N);
        }
    }
    *entropy = ent / (BATCH * BIG_H * BIG_N);
    *max_w = mx / (BATCH * BIG_H * BIG_N);
    free(q);
    free(out);
    free(w);
}

static void section_xavier(report_t *r, const model_t *md, rng_t *rng) {
    report_section(r, "xavier initialisation");
    printf("%-16s %6s %7s %8s %8s %8s %7s %8s\n", "matrix", "fan_in", "fan_out",
           "bound a", "min", "max", "std", "a/sqrt3");
    char name[32];
    snprintf(name, sizeof name, "W_Q (%d, %d)", md->d, md->d);
    xavier_row(name, md->small.w_q, md->d, md->d);
    xavier_row("W_Q (512, 512)", md->enc.attn.w_q, BIG_D, BIG_D);
    xavier_row("W_1 (512, 2048)", md->enc.ffn.w1, BIG_D, BIG_FF);
    xavier_row("W_2 (2048, 512)", md->enc.ffn.w2, BIG_FF, BIG_D);
    report_value(r, "xavier_a_512", "%.4f", sqrt(6.0 / (2 * BIG_D)));
    report_value(r, "xavier_a_ffn", "%.4f", sqrt(6.0 / (BIG_D + BIG_FF)));

    // The same layer with N(0, 1) weights, for contrast.
    mha_params_t naive;
    xok(PROG, mha_alloc(&naive, BIG_D, BIG_H), "mha_alloc");
    rng_fill_normal(rng, naive.w_q, BIG_D * BIG_D, 0.0f, 1.0f);
    rng_fill_normal(rng, naive.w_k, BIG_D * BIG_D, 0.0f, 1.0f);
    rng_fill_normal(rng, naive.w_v, BIG_D * BIG_D, 0.0f, 1.0f);
    rng_fill_normal(rng, naive.w_o, BIG_D * BIG_D, 0.0f, 1.0f);
    double vq[2], ent[2], mx[2];
    init_effect(&naive, md->x_big, &vq[0], &ent[0], &mx[0]);
    init_effect(&md->enc.attn, md->x_big, &vq[1], &ent[1], &mx[1]);
    mha_free(&naive);
    stats_t sx = stats_of(md->x_big, BATCH * BIG_N * BIG_D);
    double var_x = sx.std * sx.std;

    printf("\nx ~ N(0, 1), shape (%d, %d, %d), %d heads; every weight drawn from:\n",
           BATCH, BIG_N, BIG_D, BIG_H);
    printf("%-12s %8s %11s %13s %16s\n", "init", "var(x)", "var(x W_Q)",
           "mean entropy", "mean max weight");
    const char *names[2] = {"N(0, 1)", "Xavier"};
    for (int k = 0; k < 2; k++)
        printf("%-12s %8.4f %11.4f %13.4f %16.4f\n", names[k], var_x, vq[k], ent[k],
               mx[k]);
    printf("uniform attention over %d keys: entropy ln %d = %.4f, max weight %.4f\n",
           BIG_N, BIG_N, log((double)BIG_N), 1.0 / BIG_N);
    report_value(r, "var_x", "%.2f", var_x);
    report_value(r, "var_q_normal", "%.1f", vq[0]);
    report_value(r, "var_q_xavier", "%.2f", vq[1]);
    report_value(r, "ent_normal", "%.4f", ent[0]);
    report_value(r, "ent_xavier", "%.4f", ent[1]);
    report_value(r, "maxw_normal", "%.4f", mx[0]);
    report_value(r, "maxw_xavier", "%.4f", mx[1]);
    report_value(r, "ent_uniform_8", "%.4f", log((double)BIG_N));
}

// ---------------------------------------------------------------------------
// fused vs loop

static void section_equivalence(report_t *r, const model_t *md) {
    int n = md->n, d = md->d, h = md->h;
    float *out_f = xfloats(PROG, (size_t)n * d), *out_l = xfloats(PROG, (size_t)n * d);
    float *w_f = xfloats(PROG, (size_t)h * n * n);
    float *w_l = xfloats(PROG, (size_t)h * n * n);
    xok(PROG, mha_forward(&md->small, md->x_small, n, md->x_small, n, NULL, out_f, w_f),
        "mha_forward");
    xok(PROG, mha_forward_loop(&md->small, md->x_small, n, md->x_small, n, NULL, out_l,
                               w_l), "mha_forward_loop");
    double d_out = mat_max_abs_diff(out_f, out_l, (size_t)n * d);
    double d_w = mat_max_abs_diff(w_f, w_l, (size_t)h * n * n);
    report_section(r, "fused vs loop");
    const char *heads = h == 1 ? "head" : "heads";   // --heads 1: "1 head"
    printf("x (%d, %d) ~ N(0, 1); %d %s of width d_k = %d; Xavier weights\n", n, d, h,
           heads, d / h);
    printf("fused: 3 projections (%d, %d), split, %d x attention, concat, W_O\n", d, d,
           h);
    printf("loop:  %d %s, each with its own (%d, %d) slices of W_Q, W_K, W_V\n", h,
           heads, d, d / h);
    printf("       and (%d, %d) slice of W_O; their products summed\n", d / h, d);
    char label[64];
    snprintf(label, sizeof label, "output (%d, %d), max |fused - loop|", n, d);
    report_check(r, label, d_out, 1e-5);
    snprintf(label, sizeof label, "weights (%d, %d, %d), max |fused - loop|", h, n, n);
    report_check(r, label, d_w, 1e-5);
    report_value(r, "equiv_out", "%.1e", d_out);
    report_value(r, "equiv_w", "%g", d_w);
    free(out_f);
    free(out_l);
    free(w_f);
    free(w_l);
}

// ---------------------------------------------------------------------------
// parameters and FLOPs

static void section_counts(report_t *r, const model_t *md) {
    int n = md->n, d = md->d;
    long p_mha = 4L * d * d + d;
    report_section(r, "parameters and flops");
    printf("self-attention over n = %d tokens, d_model = %d\n", n, d);
    printf("%6s %5s %12s %14s %18s\n", "heads", "d_k", "parameters", "matmul flops",
           "attention weights");
    int shown[8], n_shown = 0;
    for (int h = 1; h <= 16 && h <= d; h *= 2)
        if (d % h == 0) shown[n_shown++] = h;
    if (md->h > 16 || (md->h & (md->h - 1)) != 0) shown[n_shown++] = md->h;
    for (int k = 0; k < n_shown; k++) {
        int h = shown[k];
        printf("%6d %5d %12ld %14.0f %18ld\n", h, d / h, p_mha,
               flops_mha(n, n, d), (long)h * n * n);
    }
    report_value(r, "params_small", "%.0f", (double)p_mha);
    report_value(r, "flops_small", "%.0f", flops_mha(n, n, d));

    double f_mha = flops_mha(BIG_N, BIG_N, BIG_D);
    double f_ffn = flops_ffn(BIG_N, BIG_D, BIG_FF);
    long p_att = mha_param_count(&md->enc.attn), p_ffn = ffn_param_count(&md->enc.ffn);
    long p_enc = encoder_block_param_count(&md->enc);
    long p_dec = decoder_block_param_count(&md->dec);
    double f_cross = flops_mha(BIG_N, BIG_N, BIG_D);   // m = n source tokens
    printf("\nTransformer block, d_model = %d, h = %d, d_ff = %d, n = %d tokens\n",
           BIG_D, BIG_H, BIG_FF, BIG_N);
    printf("%-34s %11s %14s\n", "part", "parameters", "matmul flops");
    printf("%-34s %11ld %14.0f\n", "multi-head attention", p_att, f_mha);
    printf("%-34s %11ld %14.0f\n", "feed-forward 512 -> 2048 -> 512", p_ffn, f_ffn);
    printf("%-34s %11d %14d\n", "layer norm (gamma, beta)", 2 * BIG_D, 0);
    printf("%-34s %11ld %14.0f\n", "encoder block: attn, FFN, 2 norms", p_enc,
           f_mha + f_ffn);
    printf("%-34s %11ld %14.0f\n", "decoder block: 2 attn, FFN, 3 norms", p_dec,
           f_mha + f_cross + f_ffn);
    report_value(r, "params_mha_512", "%.0f", (double)p_att);
    report_value(r, "params_ffn_512", "%.0f", (double)p_ffn);
    report_value(r, "params_enc_512", "%.0f", (double)p_enc);
    report_value(r, "params_dec_512", "%.0f", (double)p_dec);
    report_value(r, "flops_mha_512", "%.0f", f_mha);
    report_value(r, "flops_ffn_512", "%.0f", f_ffn);
    report_value(r, "ffn_share", "%.0f", 100.0 * p_ffn / p_enc);

    // Where the work goes as the sequence grows (figure data).
    FILE *f = report_data(r, "flops.dat");
    long cross_proj = 0, cross_ffn = 0;
    if (f) fprintf(f, "# n projections attention_core ffn\n");
    for (long nn = 16; nn <= 16384; nn *= 2) {
        double proj = 8.0 * nn * BIG_D * BIG_D, core = 4.0 * nn * nn * BIG_D;
        double ffn = flops_ffn((double)nn, BIG_D, BIG_FF);
        if (!cross_proj && core >= proj) cross_proj = nn;
        if (!cross_ffn && core >= ffn) cross_ffn = nn;
        if (f) fprintf(f, "%ld %.6g %.6g %.6g\n", nn, proj, core, ffn);
    }
    report_data_close(r, f);
    printf("\nthe n^2 part (Q K^T, weights V) overtakes the projections at n = %ld\n",
           cross_proj);
    printf("and the feed-forward network at n = %ld (d_model %d, d_ff %d)\n", cross_ffn,
           BIG_D, BIG_FF);
    report_value(r, "cross_proj", "%.0f", (double)cross_proj);
    report_value(r, "cross_ffn", "%.0f", (double)cross_ffn);
}

// ---------------------------------------------------------------------------
// random heads: what Xavier weights give before any training

static void print_head_stats(const char *label, int width, const float *w, int n) {
    double ent = attn_mean_entropy(w, n, n);
    printf("%-*s %8.4f %7.2f %11.4f %9.4f\n", width, label, ent, exp(ent),
           attn_max_weight(w, n, n), attn_diag_strength(w, n));
}

static void section_random_heads(report_t *r, const model_t *md) {
    int n = md->n, d = md->d, h = md->h;
    float *out = xfloats(PROG, (size_t)n * d), *w = xfloats(PROG, (size_t)h * n * n);
    xok(PROG, mha_forward(&md->small, md->x_small, n, md->x_small, n, NULL, out, w),
        "mha_forward");
    report_section(r, "random heads");
    printf("self-attention of %d random tokens, d_model %d, Xavier weights, "
           "untrained\n", n, d);
    printf("%-6s %8s %7s %11s %9s\n", "head", "entropy", "exp(H)", "max weight",
           "diagonal");
    double lo = INFINITY, hi = 0.0;
    for (int k = 0; k < h; k++) {
        char label[16];
        snprintf(label, sizeof label, "%d", k + 1);
        print_head_stats(label, 6, w + (size_t)k * n * n, n);
        double ent = attn_mean_entropy(w + (size_t)k * n * n, n, n);
        if (ent < lo) lo = ent;
        if (ent > hi) hi = ent;
        if (k < 8) {
            char name[32];
            snprintf(name, sizeof name, "random_head%d.dat", k);
            FILE *f = report_data(r, name);
            report_write_matrix(f, w + (size_t)k * n * n, n, n, NULL, NULL);
            report_data_close(r, f);
        }
    }
    printf("uniform over %d keys: entropy %.4f, exp(H) %.2f, max weight %.4f\n", n,
           log((double)n), (double)n, 1.0 / n);
    report_value(r, "rand_ent_lo", "%.2f", lo);
    report_value(r, "rand_ent_hi", "%.2f", hi);
    report_value(r, "rand_ent_uniform", "%.2f", log((double)n));
    free(out);
    free(w);
}

// ---------------------------------------------------------------------------
// planted heads: hand-set W_Q, W_K that mimic patterns of trained heads

static const char *const TOKENS[PL_N] = {"the", "cat",   "sat",   "because",
                                         "it",  "was",   "tired", "."};
// Word classes, one feature each (dimensions 8..15 of a token vector).
enum { DET, NOUN, VERB, CONJ, PRON, ADJ, PUNCT, NOMINAL };
static const int WORD_CLASS[PL_N] = {DET, NOUN, VERB, CONJ, PRON, VERB, ADJ, PUNCT};
static const char *const HEAD_NAMES[PL_H] = {
    "previous", "next", "self", "to '.'", "it -> noun", "verb -> noun", "broad",
    "random"};

// snippet: planted_input
// Token i of the sentence: one-hot position i (dims 0-7), one-hot word class
// (dims 8-15, plus NOMINAL for nouns and pronouns), noise for the rest.
static void planted_input(float *x, rng_t *rng) {
    memset(x, 0, sizeof(float) * PL_N * PL_D);
    for (int i = 0; i < PL_N; i++) {
        float *row = x + i * PL_D;
        row[i] = 1.0f;                                        // where it is
        row[8 + WORD_CLASS[i]] = 1.0f;                        // what it is
        if (WORD_CLASS[i] == NOUN || WORD_CLASS[i] == PRON) row[8 + NOMINAL] = 1.0f;
        rng_fill_normal(rng, row + 16, PL_D - 16, 0.0f, 0.5f);   // which word
    }
}
// end snippet

// Head h reads feature `in` into column `col` of its queries (Q) or keys (K).
// Queries get strength * sqrt(d_k) and keys 1, so a match adds `strength` to
// the scaled score q . k / sqrt(d_k).
static void set_q(mha_params_t *p, int h, int in, int col, float strength) {
    p->w_q[in * PL_D + h * PL_DK + col] = strength * sqrtf((float)PL_DK);
}
static void set_k(mha_params_t *p, int h, int in, int col) {
    p->w_k[in * PL_D + h * PL_DK + col] = 1.0f;
}

// snippet: plant_heads
static void plant_heads(mha_params_t *p) {
    // Heads 0-6 are set by hand; head 7 keeps its random Xavier weights.
    for (int in = 0; in < PL_D; in++)
        for (int c = 0; c < 7 * PL_DK; c++)
            p->w_q[in * PL_D + c] = p->w_k[in * PL_D + c] = 0.0f;
    for (int i = 0; i < PL_N; i++) {
        // Positional heads: query i asks for position i in column i ...
        for (int h = 0; h < 3; h++) set_q(p, h, i, i, 5.0f);
        // ... and each key answers for the position that should find it.
        if (i + 1 < PL_N) set_k(p, 0, i, i + 1);   // 0: key i serves query i + 1
        if (i >= 1) set_k(p, 1, i, i - 1);         // 1: key i serves query i - 1
        set_k(p, 2, i, i);                         // 2: key i serves query i
        // Every query of heads 3-5 asks for the sentence's end: for head 3
        // that is all; heads 4 and 5 fall back on it when nothing better matches.
        for (int h = 3; h <= 5; h++) set_q(p, h, i, 1, 5.0f);
    }
    set_k(p, 0, 0, 0);                   // the first token has no previous one
    set_k(p, 1, PL_N - 1, PL_N - 1);     // the last token has no next one
    for (int h = 3; h <= 5; h++) set_k(p, h, 8 + PUNCT, 1);   // "." answers
    set_q(p, 4, 8 + PRON, 0, 8.0f);      // 4: pronouns ask for nouns
    set_k(p, 4, 8 + NOUN, 0);
    set_q(p, 5, 8 + VERB, 0, 8.0f);      // 5: verbs ask for nouns and pronouns
    set_k(p, 5, 8 + NOMINAL, 0);
    // 6: all zero, so every score is 0 and every row uniform.
}
// end snippet

// The keys that query row w (m,) attends to with weight >= 0.3, joined by '/'.
static void targets(const float *w, int m, char *buf, int size) {
    buf[0] = '\0';
    for (int j = 0; j < m; j++)
        if (w[j] >= 0.3f) {
            size_t len = strlen(buf);
            snprintf(buf + len, (size_t)size - len, "%s%s", len ? "/" : "", TOKENS[j]);
        }
    if (!buf[0]) snprintf(buf, (size_t)size, "-");
}

static void section_planted(report_t *r, const model_t *md) {
    float out[PL_N * PL_D], w[PL_H * PL_N * PL_N];
    xok(PROG, mha_forward(&md->planted, md->x_planted, PL_N, md->x_planted, PL_N, NULL,
                          out, w), "mha_forward");
    report_section(r, "planted heads");
    printf("sentence:");
    for (int i = 0; i < PL_N; i++) printf(" %s", TOKENS[i]);
    printf("\nx (%d, %d); %d heads of d_k = %d with hand-set W_Q, W_K (head 8 "
           "random)\n", PL_N, PL_D, PL_H, PL_DK);
    printf("keys each query gives weight >= 0.3 ('-': none does):\n");
    printf("%-14s", "head \\ query");
    for (int i = 0; i < PL_N; i++) printf("%8s", TOKENS[i]);
    printf("\n");
    for (int h = 0; h < PL_H; h++) {
        printf("%d %-12s", h + 1, HEAD_NAMES[h]);
        for (int i = 0; i < PL_N; i++) {
            char buf[32];
            targets(w + (h * PL_N + i) * PL_N, PL_N, buf, sizeof buf);
            printf("%8s", buf);
        }
        printf("\n");
    }
    printf("\n%-14s %8s %7s %11s %9s\n", "head", "entropy", "exp(H)", "max weight",
           "diagonal");
    for (int h = 0; h < PL_H; h++) {
        char label[32];
        snprintf(label, sizeof label, "%d %s", h + 1, HEAD_NAMES[h]);
        print_head_stats(label, 14, w + h * PL_N * PL_N, PL_N);

        char name[32];
        snprintf(name, sizeof name, "planted_head%d.dat", h);
        FILE *f = report_data(r, name);
        report_write_matrix(f, w + h * PL_N * PL_N, PL_N, PL_N, TOKENS, TOKENS);
        report_data_close(r, f);
    }
    const float *prev = w, *coref = w + 4 * PL_N * PL_N, *verb = w + 5 * PL_N * PL_N;
    const float *sink = w + 3 * PL_N * PL_N, *broad = w + 6 * PL_N * PL_N;
    report_value(r, "pl_prev_ent", "%.2f", attn_mean_entropy(prev, PL_N, PL_N));
    report_value(r, "pl_prev_w", "%.2f", prev[2 * PL_N + 1]);         // sat -> cat
    report_value(r, "pl_sink_w", "%.2f", sink[0 * PL_N + 7]);         // the -> .
    report_value(r, "pl_coref_w", "%.2f", coref[4 * PL_N + 1]);       // it -> cat
    report_value(r, "pl_verb_cat", "%.2f", verb[2 * PL_N + 1]);       // sat -> cat
    report_value(r, "pl_verb_it", "%.2f", verb[2 * PL_N + 4]);        // sat -> it
    report_value(r, "pl_broad_ent", "%.4f", attn_mean_entropy(broad, PL_N, PL_N));
    report_value(r, "pl_rand_ent", "%.2f",
                 attn_mean_entropy(w + 7 * PL_N * PL_N, PL_N, PL_N));
}

// ---------------------------------------------------------------------------
// the d_model = 512, 8-head demonstration

static void section_big(report_t *r, model_t *md) {
    size_t per_x = (size_t)BIG_N * BIG_D, per_w = (size_t)BIG_H * BIG_N * BIG_N;
    float *out_l = xfloats(PROG, per_x), *w_l = xfloats(PROG, per_w);
    double d_out = 0.0, d_w = 0.0;
    for (int b = 0; b < BATCH; b++) {
        const float *x = md->x_big + b * per_x;
        float *y = md->y_big + b * per_x, *w = md->w_big + b * per_w;
        xok(PROG, mha_forward(&md->enc.attn, x, BIG_N, x, BIG_N, NULL, y, w),
            "mha_forward");
        xok(PROG, mha_forward_loop(&md->enc.attn, x, BIG_N, x, BIG_N, NULL, out_l, w_l),
            "mha_forward_loop");
        d_out = fmax(d_out, mat_max_abs_diff(y, out_l, per_x));
        d_w = fmax(d_w, mat_max_abs_diff(w, w_l, per_w));
    }
    free(out_l);
    free(w_l);

    int n_w = BATCH * (int)per_w, rows = n_w / BIG_N;
    stats_t s = stats_of(md->w_big, n_w);
    double sum_lo = INFINITY, sum_hi = -INFINITY;
    for (int row = 0; row < rows; row++) {
        double sum = 0.0;
        for (int j = 0; j < BIG_N; j++) sum += md->w_big[row * BIG_N + j];
        sum_lo = fmin(sum_lo, sum), sum_hi = fmax(sum_hi, sum);
    }
    double sum_err = attn_row_sum_error(md->w_big, rows, BIG_N);

    report_section(r, "d_model 512");
    printf("batch %d, n = %d tokens, d_model = %d, h = %d heads of d_k = %d\n", BATCH,
           BIG_N, BIG_D, BIG_H, BIG_D / BIG_H);
    printf("input   x  (%d, %d, %d)\n", BATCH, BIG_N, BIG_D);
    printf("output  y  (%d, %d, %d)\n", BATCH, BIG_N, BIG_D);
    printf("weights A  (%d, %d, %d, %d)  (batch, head, query, key)\n", BATCH, BIG_H,
           BIG_N, BIG_N);
    printf("attention weights, all %d of them:\n", n_w);
    printf("  mean  %.4f\n  std   %.4f\n  max   %.4f\n  min   %.4f\n", s.mean, s.std,
           s.max, s.min);
    printf("row sums over %d rows: smallest %.4f, largest %.4f\n", rows, sum_lo,
           sum_hi);
    report_check(r, "largest |row sum - 1|", sum_err, 1e-6);
    report_check(r, "outputs, max |fused - loop|", d_out, 1e-5);
    report_check(r, "weights, max |fused - loop|", d_w, 1e-5);
    report_value(r, "big_n_w", "%.0f", (double)n_w);
    report_value(r, "big_mean", "%.4f", s.mean);
    report_value(r, "big_std", "%.4f", s.std);
    report_value(r, "big_max", "%.4f", s.max);
    report_value(r, "big_min", "%.4f", s.min);
    report_value(r, "big_sum_err", "%.1e", sum_err);
    report_value(r, "big_equiv", "%.1e", d_out);
}

// ---------------------------------------------------------------------------
// Add & Norm and the feed-forward network, on the first sequence of the batch

static void section_add_norm(report_t *r, const model_t *md, float *h1) {
    size_t size = (size_t)BIG_N * BIG_D;
    float *res = xfloats(PROG, size);
    const float *x = md->x_big, *sub = md->y_big;   // first sequence
    for (size_t i = 0; i < size; i++) res[i] = x[i] + sub[i];
    layernorm_add_norm(x, sub, &md->enc.norm1, h1, BIG_N);

    report_section(r, "add and norm");
    printf("r = x + MultiHead(x, x, x), first sequence (%d, %d); then LayerNorm(r)\n",
           BIG_N, BIG_D);
    printf("gamma = 1, beta = 0, eps = 1e-5\n");
    printf("%3s %10s %9s %12s %11s\n", "row", "mean(r)", "var(r)", "mean(LN r)",
           "var(LN r)");
    double worst_mean = 0.0, worst_var = 0.0, var_lo = INFINITY, var_hi = 0.0;
    for (int i = 0; i < BIG_N; i++) {
        stats_t s0 = stats_of(res + i * BIG_D, BIG_D);
        stats_t s1 = stats_of(h1 + i * BIG_D, BIG_D);
        double v0 = s0.std * s0.std, v1 = s1.std * s1.std;
        char buf[32];
        printf("%3d %10.4f %9.4f %12s %11.4f\n", i, s0.mean, v0,
               report_fmt_fixed(buf, sizeof buf, s1.mean, 4), v1);
        worst_mean = fmax(worst_mean, fabs(s1.mean));
        worst_var = fmax(worst_var, fabs(v1 - 1.0));
        var_lo = fmin(var_lo, v0), var_hi = fmax(var_hi, v0);
    }
    // var(LN r) = var(r) / (var(r) + eps): 1 less about eps / var(r).
    report_check(r, "largest |mean| after LayerNorm", worst_mean, 1e-6);
    report_check(r, "largest |var - 1| after LayerNorm", worst_var, 1e-4);
    report_value(r, "ln_var_lo", "%.2f", var_lo);
    report_value(r, "ln_var_hi", "%.2f", var_hi);
    report_value(r, "ln_mean_err", "%.0e", worst_mean);
    report_value(r, "ln_var_err", "%.0e", worst_var);
    free(res);
}

static void section_ffn(report_t *r, const model_t *md, const float *h1) {
    const ffn_params_t *p = &md->enc.ffn;
    int n_hid = BIG_N * BIG_FF;
    float *hidden = xfloats(PROG, (size_t)n_hid), *y = xfloats(PROG, BIG_N * BIG_D);
    float hid1[BIG_FF], y1[BIG_D];
    ffn_forward(p, h1, hidden, y, BIG_N);
    int zeros = 0;
    for (int i = 0; i < n_hid; i++) zeros += hidden[i] == 0.0f;
    ffn_forward(p, h1 + 3 * BIG_D, hid1, y1, 1);   // row 3 on its own
    double d_row = mat_max_abs_diff(y1, y + 3 * BIG_D, BIG_D);

    report_section(r, "feed-forward");
    printf("h (%d, %d) -> ReLU(h W_1 + b_1) (%d, %d) -> . W_2 + b_2 (%d, %d)\n", BIG_N,
           BIG_D, BIG_N, BIG_FF, BIG_N, BIG_D);
    printf("parameters: W_1 %d + b_1 %d + W_2 %d + b_2 %d = %ld\n", BIG_D * BIG_FF,
           BIG_FF, BIG_FF * BIG_D, BIG_D, ffn_param_count(p));
    printf("hidden units set to 0 by ReLU: %d of %d (%.1f%%)\n", zeros, n_hid,
           100.0 * zeros / n_hid);
    report_check(r, "position-wise: row 3 alone == row 3 of all", d_row, 0.0);
    report_value(r, "ffn_zero_pct", "%.1f", 100.0 * zeros / n_hid);
    report_value(r, "ffn_row_diff", "%g", d_row);
    free(hidden);
    free(y);
}

// ---------------------------------------------------------------------------
// one encoder block and one decoder block

// For each row i of a (n, d) and b (n, d): max_j |a[i][j] - b[i][j]| into diff.
static void row_changes(const float *a, const float *b, int n, int d, double *diff) {
    for (int i = 0; i < n; i++) diff[i] = mat_max_abs_diff(a + i * d, b + i * d, d);
}

static void print_changes(const double *diff, int n) {
    printf("  row:   ");
    for (int i = 0; i < n; i++) printf("%8d", i);
    printf("\n  change:");
    for (int i = 0; i < n; i++) printf("%8.4f", diff[i]);
    printf("\n");
}

// dst (n, d) <- src with 1 added to every entry of row `row`.
static void bump_row(float *dst, const float *src, int n, int d, int row) {
    memcpy(dst, src, sizeof(float) * (size_t)n * d);
    for (int j = 0; j < d; j++) dst[row * d + j] += 1.0f;
}

static void section_encoder(report_t *r, const model_t *md, float *enc_out) {
    size_t size = (size_t)BIG_N * BIG_D;
    float *x2 = xfloats(PROG, size), *y2 = xfloats(PROG, size);
    const float *x = md->x_big;   // first sequence of the batch
    xok(PROG, encoder_block_forward(&md->enc, x, BIG_N, NULL, enc_out, NULL),
        "encoder_block_forward");
    bump_row(x2, x, BIG_N, BIG_D, BIG_N - 1);
    xok(PROG, encoder_block_forward(&md->enc, x2, BIG_N, NULL, y2, NULL),
        "encoder_block_forward");
    double m_lo = INFINITY, m_hi = -INFINITY, v_lo = INFINITY, v_hi = 0.0;
    for (int i = 0; i < BIG_N; i++) {
        stats_t s = stats_of(enc_out + i * BIG_D, BIG_D);
        m_lo = fmin(m_lo, s.mean), m_hi = fmax(m_hi, s.mean);
        v_lo = fmin(v_lo, s.std * s.std), v_hi = fmax(v_hi, s.std * s.std);
    }
    double diff[BIG_N];
    row_changes(enc_out, y2, BIG_N, BIG_D, diff);
    char b1[32], b2[32];
    report_section(r, "encoder block");
    report_value(r, "blk_d", "%.0f", BIG_D);     // for the block diagram
    report_value(r, "blk_h", "%.0f", BIG_H);
    report_value(r, "blk_ff", "%.0f", BIG_FF);
    printf("source x (%d, %d) -> encoder block -> y (%d, %d); weights (%d, %d, %d)\n",
           BIG_N, BIG_D, BIG_N, BIG_D, BIG_H, BIG_N, BIG_N);
    printf("  h1 = LayerNorm(x + MultiHead(x, x, x))\n");
    printf("  y  = LayerNorm(h1 + FFN(h1))\n");
    printf("parameters: %ld\n", encoder_block_param_count(&md->enc));
    printf("rows of y: mean in [%s, %s], variance in [%.4f, %.4f]\n",
           report_fmt_fixed(b1, sizeof b1, m_lo, 4),
           report_fmt_fixed(b2, sizeof b2, m_hi, 4), v_lo, v_hi);
    printf("add 1 to every entry of source token %d; max |change| of each "
           "output row:\n", BIG_N - 1);
    print_changes(diff, BIG_N);
    double lo = diff[0];
    for (int i = 1; i < BIG_N; i++) lo = fmin(lo, diff[i]);
    report_value(r, "enc_change_min", "%.4f", lo);
    free(x2);
    free(y2);
}

static void section_decoder(report_t *r, const model_t *md, const float *enc_out) {
    size_t size = (size_t)TGT_N * BIG_D;
    float *y = xfloats(PROG, size), *t2 = xfloats(PROG, size);
    float *y2 = xfloats(PROG, size);
    float *y3 = xfloats(PROG, size), *enc2 = xfloats(PROG, (size_t)BIG_N * BIG_D);
    float *sw = xfloats(PROG, (size_t)BIG_H * TGT_N * TGT_N);
    float *cw = xfloats(PROG, (size_t)BIG_H * TGT_N * BIG_N);
    const decoder_block_t *b = &md->dec;
    const char *fwd = "decoder_block_forward";
    xok(PROG, decoder_block_forward(b, md->tgt, TGT_N, enc_out, BIG_N, NULL, NULL, y,
                                    sw, cw), fwd);
    bump_row(t2, md->tgt, TGT_N, BIG_D, TGT_N - 1);   // change the last target token
    xok(PROG, decoder_block_forward(b, t2, TGT_N, enc_out, BIG_N, NULL, NULL, y2, NULL,
                                    NULL), fwd);
    bump_row(enc2, enc_out, BIG_N, BIG_D, BIG_N - 1);  // change the last encoder row
    xok(PROG, decoder_block_forward(b, md->tgt, TGT_N, enc2, BIG_N, NULL, NULL, y3,
                                    NULL, NULL), fwd);
    double future = 0.0;
    for (int h = 0; h < BIG_H; h++)
        for (int i = 0; i < TGT_N; i++)
            for (int j = i + 1; j < TGT_N; j++)
                future += sw[(h * TGT_N + i) * TGT_N + j];
    double cross_err = attn_row_sum_error(cw, BIG_H * TGT_N, BIG_N);
    double d_tgt[TGT_N], d_enc[TGT_N];
    row_changes(y, y2, TGT_N, BIG_D, d_tgt);
    row_changes(y, y3, TGT_N, BIG_D, d_enc);

    report_section(r, "decoder block");
    printf("target t (%d, %d), encoder output (%d, %d) -> decoder block -> "
           "y (%d, %d)\n", TGT_N, BIG_D, BIG_N, BIG_D, TGT_N, BIG_D);
    printf("  h1 = LayerNorm(t + MultiHead(t, t, t; causal mask))\n");
    printf("  h2 = LayerNorm(h1 + MultiHead(h1, enc, enc))\n");
    printf("  y  = LayerNorm(h2 + FFN(h2))\n");
    printf("parameters: %ld\n", decoder_block_param_count(b));
    char label[80];
    snprintf(label, sizeof label,
             "self-attention (%d, %d, %d), weight on future tokens", BIG_H, TGT_N,
             TGT_N);
    report_check(r, label, future, 0.0);
    snprintf(label, sizeof label, "cross-attention (%d, %d, %d), largest |row sum - 1|",
             BIG_H, TGT_N, BIG_N);
    report_check(r, label, cross_err, 1e-6);
    printf("add 1 to every entry of target token %d; max |change| of each "
           "output row:\n", TGT_N - 1);
    print_changes(d_tgt, TGT_N);
    printf("add 1 to every entry of encoder row %d; max |change| of each "
           "output row:\n", BIG_N - 1);
    print_changes(d_enc, TGT_N);
    double before = 0.0, lo_enc = d_enc[0];
    for (int i = 0; i < TGT_N - 1; i++) before = fmax(before, d_tgt[i]);
    for (int i = 1; i < TGT_N; i++) lo_enc = fmin(lo_enc, d_enc[i]);
    report_value(r, "dec_future", "%.4f", future);
    report_value(r, "dec_change_before", "%.4f", before);
    report_value(r, "dec_change_last", "%.4f", d_tgt[TGT_N - 1]);
    report_value(r, "dec_enc_change_min", "%.4f", lo_enc);
    free(y);
    free(t2);
    free(y2);
    free(y3);
    free(enc2);
    free(sw);
    free(cw);
}

// ---------------------------------------------------------------------------
// setting up and tearing down

static void model_free(model_t *md) {
    mha_free(&md->small);
    mha_free(&md->planted);
    encoder_block_free(&md->enc);
    decoder_block_free(&md->dec);
    free(md->x_small);
    free(md->x_planted);
    free(md->x_big);
    free(md->y_big);
    free(md->w_big);
    free(md->tgt);
}

static model_t model_new(int n, int d, int h, rng_t *rng) {
    model_t md = {.n = n, .d = d, .h = h};
    size_t big = (size_t)BATCH * BIG_N * BIG_D;
    xok(PROG, mha_alloc(&md.small, d, h), "mha_alloc");
    xok(PROG, mha_alloc(&md.planted, PL_D, PL_H), "mha_alloc");
    xok(PROG, encoder_block_alloc(&md.enc, BIG_D, BIG_H, BIG_FF), "encoder_block");
    xok(PROG, decoder_block_alloc(&md.dec, BIG_D, BIG_H, BIG_FF), "decoder_block");
    md.x_small = xfloats(PROG, (size_t)n * d);
    md.x_planted = xfloats(PROG, PL_N * PL_D);
    md.x_big = xfloats(PROG, big);
    md.y_big = xfloats(PROG, big);
    md.w_big = xfloats(PROG, (size_t)BATCH * BIG_H * BIG_N * BIG_N);
    md.tgt = xfloats(PROG, (size_t)TGT_N * BIG_D);
    // One random stream, always drawn in this order.
    mha_init(&md.small, rng);
    rng_fill_normal(rng, md.x_small, n * d, 0.0f, 1.0f);
    mha_init(&md.planted, rng);
    plant_heads(&md.planted);
    planted_input(md.x_planted, rng);
    encoder_block_init(&md.enc, rng);
    decoder_block_init(&md.dec, rng);
    rng_fill_normal(rng, md.x_big, (int)big, 0.0f, 1.0f);
    rng_fill_normal(rng, md.tgt, TGT_N * BIG_D, 0.0f, 1.0f);
    return md;
}

// The check across options: --heads divides --d-model.
static int check_options(const cli_t *cli, char *why, size_t size) {
    long d_model = cli_int(cli, "--d-model"), heads = cli_int(cli, "--heads");
    return cli_require(why, size, d_model % heads == 0,
                       "--d-model %ld is not divisible by --heads %ld", d_model, heads);
}

int main(int argc, char **argv) {
    long seq_len = 8, d_model = 64, heads = 8;
    const cli_opt_t opts[] = {
        {.name = "--seq-len", .meta = "N", .help = "tokens in the small walk-through",
         .kind = CLI_INT, .ival = &seq_len, .min = 8, .max = 512},
        {.name = "--d-model", .meta = "N", .help = "width of the small walk-through",
         .kind = CLI_INT, .ival = &d_model, .min = 2, .max = 512},
        {.name = "--heads", .meta = "N", .help = "heads, must divide --d-model",
         .kind = CLI_INT, .ival = &heads, .min = 1, .max = 64},
    };
    cli_t cli = {.program = PROG,
                 .summary = "Chapter 4: multi-head attention, the Transformer block.",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 42,
                 .check = check_options};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);   // --help, bad options: exit
    if (rc >= 0) return rc;
    rng_t rng;
    rng_seed(&rng, cli.seed);
    model_t md = model_new((int)seq_len, (int)d_model, (int)heads, &rng);
    float *h1 = xfloats(PROG, (size_t)BIG_N * BIG_D);        // add & norm -> FFN
    float *enc_out = xfloats(PROG, (size_t)BIG_N * BIG_D);   // encoder -> decoder
    section_config(&r, &md, (unsigned long long)cli.seed);
    section_split(&r);
    section_xavier(&r, &md, &rng);
    section_equivalence(&r, &md);
    section_counts(&r, &md);
    section_random_heads(&r, &md);
    section_planted(&r, &md);
    section_big(&r, &md);
    section_add_norm(&r, &md, h1);
    section_ffn(&r, &md, h1);
    section_encoder(&r, &md, enc_out);
    section_decoder(&r, &md, enc_out);

    model_free(&md);
    free(h1);
    free(enc_out);
    return report_close(&r) == 0 ? 0 : 1;
}
