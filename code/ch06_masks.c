// ch06_masks.c -- chapter 6: masks, and decoding one token at a time with a KV cache.
//
// Builds the six mask kinds on a small sequence and prints them; measures them;
// shows the conventions found in the wild (1 = visible vs 1 = masked, additive
// vs multiplicative) and what goes wrong with each, including a fully masked
// row; runs a padded batch through multi-head attention and checks that the
// real tokens get exactly the outputs they get unpadded; follows information
// through stacked layers under each mask; and generates tokens with a KV
// cache, checked against the full causal computation, with the work it saves.
//
// --seq-len sizes the information-flow study; --steps the generated sequence.

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mat.h"
#include "base/rng.h"
#include "attention/attention.h"
#include "attention/softmax.h"
#include "layers/multihead.h"
#include "masks/kv_cache.h"
#include "masks/mask.h"
#include "program/cli.h"
#include "program/program.h"
#include "program/report.h"
#include "program/xalloc.h"

static const char *PROG = "ch06_masks";

// N = tokens of the printed masks; BAND = the band's half-width; P = the
// random mask's probability; the batch: B sequences padded to BN tokens,
// width BD, BH heads; the decoder: width KD, KH heads, vocabulary KV;
// DEPTH = most stacked layers in the flow study; BIG_D = width for the counts.
enum { N = 8, BAND = 3, B = 3, BN = 8, BD = 16, BH = 4, KD = 32, KH = 4, KV = 16 };
enum { DEPTH = 8, BIG_D = 512, GPT2_D = 768, GPT2_L = 12, FLOW_D = 16 };
static const double P_RANDOM = 0.3;
static const double FLOW_THRESHOLD = 0.01;   // "effective": more than 1 % weight

enum { K_CAUSAL, K_PADDING, K_FULL, K_BAND, K_RANDOM, K_CAUSAL_PAD, N_KINDS };
static const char *const KIND[N_KINDS] = {"causal", "padding", "bidirectional",
                                          "band", "random", "causal+pad"};
static const char *const SHORT[N_KINDS] = {"causal", "padding", "bidir", "band",
                                           "random", "causal+pad"};

// Builds mask kind `kind` (n, n); padded sequences have ids[j] == 0 at the end.
static void build_mask(int kind, unsigned char *mask, const int *ids, int n,
                       rng_t *rng) {
    unsigned char *pad = xmalloc(PROG, (size_t)n * n);
    switch (kind) {
    case K_CAUSAL: mask_causal(mask, n); break;
    case K_PADDING: mask_padding(ids, n, mask); break;
    case K_FULL: mask_full(mask, n, n); break;
    case K_BAND: mask_band(mask, n, BAND); break;
    case K_RANDOM: mask_random(mask, n, P_RANDOM, rng); break;
    default:                                     // causal AND padding
        mask_causal(mask, n);
        mask_padding(ids, n, pad);
        mask_and(mask, pad, mask, (size_t)n * n);
    }
    free(pad);
}

// Token ids of a sequence of `len` real tokens padded to n: 1..len mixed up, then 0s.
static void padded_ids(int *ids, int n, int len, int salt) {
    for (int j = 0; j < n; j++)
        ids[j] = j < len ? 1 + (j * 7 + salt) % 31 : MASK_PAD_ID;
}

// Prints NaN and infinities the same way on every C library.
static const char *fmt(char *buf, int size, double v, int prec) {
    if (isnan(v)) return "NaN";
    if (isinf(v)) return v < 0 ? "-inf" : "inf";
    return report_fmt_fixed(buf, size, v, prec);
}

static void print_row(const char *label, const float *x, int m, int prec) {
    char buf[32];
    printf("%-22s", label);
    for (int j = 0; j < m; j++) printf(" %7s", fmt(buf, sizeof buf, x[j], prec));
    printf("\n");
}

// ---------------------------------------------------------------------------
// the mask kinds

// Prints up to three (N, N) masks side by side, 1 = visible, . = hidden.
static void print_masks(unsigned char *const *m, const char *const *names, int count) {
    for (int k = 0; k < count; k++) printf("%-*s", 2 * N + 4, names[k]);
    printf("\n");
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < count; k++) {
            for (int j = 0; j < N; j++) printf("%c ", m[k][i * N + j] ? '1' : '.');
            printf("    ");
        }
        printf("\n");
    }
}

static void section_kinds(report_t *r, unsigned char *masks[N_KINDS], const int *ids) {
    report_section(r, "mask kinds");
    printf("n = %d tokens, ids:", N);
    for (int j = 0; j < N; j++) printf(" %d", ids[j]);
    printf("  (0 = padding)\n");
    printf("row i = query i, column j = key j; 1 = visible, . = hidden\n\n");
    print_masks(masks, KIND, 3);
    printf("\n");
    print_masks(masks + 3, KIND + 3, 3);
    for (int k = 0; k < N_KINDS; k++) {
        char name[64];
        snprintf(name, sizeof name, "mask_%d.dat", k);
        FILE *f = report_data(r, name);
        for (int i = 0; f && i < N; i++)
            for (int j = 0; j < N; j++)
                fprintf(f, "%d%c", masks[k][i * N + j], j == N - 1 ? '\n' : ' ');
        report_data_close(r, f);
    }
    mask_stats_t band = mask_stats(masks[K_BAND], N, N);
    report_check_true(r, "band: no query sees more than 2 w + 1 keys",
                      band.max_visible <= 2 * BAND + 1 && band.farthest == BAND);
    report_value(r, "n_small", "%.0f", N);
    report_value(r, "band_w", "%.0f", BAND);
    report_value(r, "band_max", "%.0f", 2 * BAND + 1);
    report_value(r, "p_random", "%.1f", P_RANDOM);
}

// ---------------------------------------------------------------------------
// mask statistics

static void section_stats(report_t *r, unsigned char *masks[N_KINDS]) {
    mask_stats_t causal = {0};
    report_section(r, "mask statistics");
    printf("%-14s %8s %8s %5s %5s %6s %9s\n", "mask", "density", "mean vis", "max",
           "min", "empty", "farthest");
    for (int k = 0; k < N_KINDS; k++) {
        mask_stats_t s = mask_stats(masks[k], N, N);
        printf("%-14s %8.3f %8.3f %5d %5d %6d %9d\n", KIND[k], s.density,
               s.mean_visible, s.max_visible, s.min_visible, s.empty_rows, s.farthest);
        char key[64];
        snprintf(key, sizeof key, "density_%s", SHORT[k]);
        if (k == K_BAND || k == K_RANDOM) report_value(r, key, "%.3f", s.density);
        if (k == K_CAUSAL) causal = s;
    }
    report_value(r, "causal_mean", "%.1f", causal.mean_visible);
    report_check(r, "causal density - (n + 1) / (2 n)",
                 causal.density - (N + 1.0) / (2.0 * N), 1e-12);
}

// ---------------------------------------------------------------------------
// conventions: 1 = visible vs 1 = masked

static void print_bytes(const char *label, const unsigned char *m, int size) {
    printf("%-34s", label);
    for (int j = 0; j < size; j++) printf(" %d", m[j]);
    printf("\n");
}

static void section_conventions(report_t *r, const unsigned char *causal) {
    enum { ROW = 2 };
    unsigned char torch_mask[N * N], back[N * N];
    float bias[N];
    char buf[32];
    report_section(r, "two conventions");
    mask_invert(causal, torch_mask, N * N);
    printf("causal mask, query %d:\n", ROW);
    print_bytes("this library (1 = visible)", causal + ROW * N, N);
    print_bytes("nn.MultiheadAttention (1 = masked)", torch_mask + ROW * N, N);
    mask_to_additive(causal + ROW * N, bias, N, -INFINITY);
    printf("%-34s", "additive bias (0 or -inf)");
    for (int j = 0; j < N; j++) printf(" %s", fmt(buf, sizeof buf, bias[j], 0));
    printf("\n");
    mask_invert(torch_mask, back, N * N);
    report_check_true(r, "inverting twice gives the mask back",
                      memcmp(back, causal, N * N) == 0);
}

// ---------------------------------------------------------------------------
// additive vs multiplicative masking, on one row of scores

enum { M = 6 };

// Scores s (M,) plus the additive bias of vis (hidden as `hidden`, named
// `name`), softmaxed, printed and checked against ref, the masked softmax.
static void additive_softmax(report_t *r, const unsigned char *vis, const float *s,
                             const float *ref, float hidden, const char *name) {
    float bias[M], a[M];
    mask_to_additive(vis, bias, M, hidden);             // s + bias, then softmax
    memcpy(a, s, sizeof a);
    mat_add(a, bias, M);
    softmax_rows(a, 1, M);
    char label[64];
    snprintf(label, sizeof label, "s + (%s), softmax", name);
    print_row(label, a, M, 4);
    snprintf(label, sizeof label, "additive %s == masked softmax", name);
    report_check(r, label, mat_max_abs_diff(a, ref, M), 1e-7);
}

static void section_additive(report_t *r, rng_t *rng) {
    const unsigned char vis[M] = {1, 1, 1, 1, 0, 0};   // the last two keys are padding
    float s[M], ref[M], a[M], b[M];
    rng_fill_normal(rng, s, M, 0.0f, 2.0f);
    report_section(r, "additive and multiplicative");
    print_row("scores", s, M, 3);
    printf("%-22s", "visible");
    for (int j = 0; j < M; j++) printf(" %7d", vis[j]);
    printf("\n");
    memcpy(ref, s, sizeof s);
    softmax_rows_masked(ref, vis, 1, M);
    print_row("masked softmax", ref, M, 4);

    additive_softmax(r, vis, s, ref, -INFINITY, "-inf");
    additive_softmax(r, vis, s, ref, -1e9f, "-1e9");

    for (int j = 0; j < M; j++) a[j] = s[j] * vis[j];    // wrong: zero scores, not -inf
    softmax_rows(a, 1, M);
    print_row("s * mask, softmax", a, M, 4);
    double leak = a[4] + a[5];
    report_check_true(r, "scores times mask leave weight on hidden keys", leak > 0.01);
    memcpy(b, s, sizeof s);                             // softmax, then zero the hidden
    softmax_rows(b, 1, M);
    mask_multiply_rows(b, vis, 1, M, 0);
    print_row("softmax * mask", b, M, 4);
    double sum = 0.0;
    for (int j = 0; j < M; j++) sum += b[j];
    printf("%-22s %7.4f\n", "  its row sum", sum);
    report_check_true(r, "softmax times mask: the row no longer sums to 1",
                      sum < 0.999);
    memcpy(b, s, sizeof s);
    softmax_rows(b, 1, M);
    mask_multiply_rows(b, vis, 1, M, 1);
    print_row("softmax * mask, renorm", b, M, 4);
    report_check(r, "renormalised == masked softmax", mat_max_abs_diff(b, ref, M),
                 1e-6);
    report_value(r, "leak", "%.4f", leak);
    report_value(r, "mult_sum", "%.4f", sum);
}

// ---------------------------------------------------------------------------
// a fully masked row, and -1e9 in float16

static void section_empty_row(report_t *r, rng_t *rng) {
    const unsigned char none[M] = {0};
    float s[M], a[M], bias[M];
    char buf[32];
    rng_fill_normal(rng, s, M, 0.0f, 2.0f);
    report_section(r, "fully masked row");
    print_row("scores (all hidden)", s, M, 3);
    memcpy(a, s, sizeof s);
    softmax_rows_masked(a, none, 1, M);
    print_row("this library", a, M, 4);
    report_check(r, "library: a fully masked row is all zeros", mat_norm(a, M), 0.0);
    mask_to_additive(none, bias, M, -INFINITY);
    memcpy(a, s, sizeof s);
    mat_add(a, bias, M);
    softmax_rows(a, 1, M);
    print_row("s + (-inf), softmax", a, M, 4);
    report_check_true(r, "additive -inf: the row is NaN", isnan(a[0]));
    mask_to_additive(none, bias, M, -1e9f);
    memcpy(a, s, sizeof s);
    mat_add(a, bias, M);
    softmax_rows(a, 1, M);
    print_row("s + (-1e9), softmax", a, M, 4);
    report_check(r, "additive -1e9: uniform over hidden keys", a[0] - 1.0 / M, 1e-6);

    printf("\nfloat16 (largest finite value 65504):\n");
    float h1 = mask_round_half(-1e9f);
    float h2 = mask_round_half(mask_round_half(-65504.0f) + mask_round_half(-20.0f));
    printf("  -1e9 rounded to float16         %s\n", fmt(buf, sizeof buf, h1, 0));
    printf("  -65504 + (-20) in float16       %s\n", fmt(buf, sizeof buf, h2, 0));
    for (int j = 0; j < M; j++) a[j] = mask_round_half(mask_round_half(s[j]) + h1);
    softmax_rows(a, 1, M);
    print_row("s + (-1e9), float16", a, M, 4);
    report_check_true(r, "float16: -1e9 becomes -inf", isinf(h1) && h1 < 0);
    report_check_true(r, "float16: -65504 - 20 becomes -inf", isinf(h2) && h2 < 0);
    report_check_true(r, "float16: a fully masked row is NaN again", isnan(a[0]));
    report_value(r, "uniform", "%.4f", 1.0 / M);
}

// ---------------------------------------------------------------------------
// a padded batch through multi-head attention

typedef struct {
    mha_params_t mha;         // (BD, BH)
    float *embed;             // (32, BD) one vector per token id, id 0 = padding
    int ids[B * BN];          // (B, BN) padded token ids
    int len[B];               // real tokens per sequence
    float *x;                 // (B, BN, BD) the embedded batch
} batch_t;

static void batch_init(batch_t *bt, rng_t *rng) {
    static const int lens[B] = {5, 3, 8};
    xok(PROG, mha_alloc(&bt->mha, BD, BH), "mha_alloc");   // sizes fixed and valid
    mha_init(&bt->mha, rng);
    bt->embed = xfloats(PROG, 32 * BD);
    rng_fill_normal(rng, bt->embed, 32 * BD, 0.0f, 1.0f);
    bt->x = xfloats(PROG, B * BN * BD);
    for (int b = 0; b < B; b++) {
        bt->len[b] = lens[b];
        padded_ids(bt->ids + b * BN, BN, lens[b], 3 * b);
        for (int j = 0; j < BN; j++)
            memcpy(bt->x + (b * BN + j) * BD, bt->embed + bt->ids[b * BN + j] * BD,
                   BD * sizeof(float));
    }
}

// Toy per-token loss |y_t|^2 / d averaged over tokens [0, count) of y (., BD).
static double mean_loss(const float *y, int count) {
    double s = 0.0;
    for (int t = 0; t < count; t++) s += mat_dot(y + t * BD, y + t * BD, BD) / BD;
    return count > 0 ? s / count : 0.0;
}

// Largest |padded - unpadded| over the real tokens of every sequence.
static double batch_vs_unpadded(batch_t *bt, const unsigned char *keep,
                                const unsigned char *attn, const float *out,
                                double loss[B][2]) {
    double worst = 0.0;
    float alone[BN * BD];
    unsigned char causal[BN * BN];
    for (int b = 0; b < B; b++) {
        int n = bt->len[b];
        mask_causal(causal, n);
        mha_forward(&bt->mha, bt->x + b * BN * BD, n, bt->x + b * BN * BD, n,
                    attn ? causal : NULL, alone, NULL);
        double d = mat_max_abs_diff(alone, out + b * BN * BD, (size_t)n * BD);
        if (d > worst || isnan(d)) worst = d;
        if (loss && keep) {
            loss[b][0] = mean_loss(alone, n);                       // unpadded
            loss[b][1] = mean_loss(out + b * BN * BD, n);           // padded, real only
        }
    }
    return worst;
}

// The loss must skip padded positions: their outputs are real numbers, not zeros.
static void print_batch_loss(report_t *r, const batch_t *bt, double loss[B][2],
                             const double all[B]) {
    double worst = 0.0;
    printf("toy loss |y|^2 / d per token, averaged:\n");
    printf("%5s %6s %10s %14s %14s\n", "seq", "length", "unpadded", "padded, real",
           "padded, all");
    for (int b = 0; b < B; b++) {
        printf("%5d %6d %10.6f %14.6f %14.6f\n", b, bt->len[b], loss[b][0], loss[b][1],
               all[b]);
        if (fabs(loss[b][0] - loss[b][1]) > worst)
            worst = fabs(loss[b][0] - loss[b][1]);
    }
    report_check(r, "loss over real tokens: padded == unpadded", worst, 0.0);
    report_check_true(r, "loss over all positions differs (seq 1)",
                      fabs(all[1] - loss[1][0]) > 1e-3);
    report_value(r, "loss_real", "%.6f", loss[1][0]);
    report_value(r, "loss_all", "%.6f", all[1]);
}

static void section_batch(report_t *r, batch_t *bt) {
    unsigned char keep[B * BN], causal[BN * BN];
    float *out = xfloats(PROG, B * BN * BD), *w = xfloats(PROG, B * BH * BN * BN);
    double loss[B][2];
    report_section(r, "padded batch");
    printf("batch of %d sequences padded to %d tokens, d_model %d, %d heads\n", B, BN,
           BD, BH);
    for (int b = 0; b < B; b++) {
        mask_key_padding(bt->ids + b * BN, BN, keep + b * BN);
        printf("seq %d ids:", b);
        for (int j = 0; j < BN; j++) printf(" %2d", bt->ids[b * BN + j]);
        printf("   keep:");
        for (int j = 0; j < BN; j++) printf(" %d", keep[b * BN + j]);
        printf("\n");
    }
    mask_causal(causal, BN);
    mask_mha_batch(&bt->mha, bt->x, B, BN, keep, NULL, out, w);
    double d_bi = batch_vs_unpadded(bt, keep, NULL, out, loss), all[B];
    for (int b = 0; b < B; b++) all[b] = mean_loss(out + b * BN * BD, BN);
    double hidden = 0.0;                   // weight on padded keys, all heads
    for (int b = 0; b < B; b++)
        for (int hq = 0; hq < BH * BN; hq++)
            for (int j = 0; j < BN; j++)
                if (!keep[b * BN + j]) hidden += w[((size_t)b * BH * BN + hq) * BN + j];
    mask_mha_batch(&bt->mha, bt->x, B, BN, keep, causal, out, NULL);
    double d_causal = batch_vs_unpadded(bt, keep, causal, out, NULL);
    mask_mha_batch(&bt->mha, bt->x, B, BN, NULL, NULL, out, NULL);
    double d_none = batch_vs_unpadded(bt, NULL, NULL, out, NULL);
    printf("max |padded - unpadded| on real tokens:\n");
    printf("  padding mask             %.3g\n", d_bi);
    printf("  causal AND padding       %.3g\n", d_causal);
    printf("  no mask (pads leak in)   %.4f\n", d_none);
    printf("weight on padded keys, all %d heads: %.3g\n", BH, hidden);
    report_check(r, "padded == unpadded, padding mask", d_bi, 0.0);
    report_check(r, "padded == unpadded, causal AND padding", d_causal, 0.0);
    report_check(r, "weight on padded keys", hidden, 0.0);
    report_check_true(r, "without the mask the outputs change", d_none > 1e-3);
    print_batch_loss(r, bt, loss, all);
    report_value(r, "leak_no_mask", "%.4f", d_none);
    free(out);
    free(w);
}

// ---------------------------------------------------------------------------
// information flow: one layer, then stacked layers

// Random scores (n, n) from random queries and keys, masked-softmaxed per kind:
// w (N_KINDS, n, n). masks (N_KINDS, n, n).
static void flow_weights(int n, rng_t *rng, unsigned char *masks, float *w) {
    float *q = xfloats(PROG, (size_t)n * FLOW_D),
          *k = xfloats(PROG, (size_t)n * FLOW_D);
    float *s = xfloats(PROG, (size_t)n * n);
    int *ids = xmalloc(PROG, (size_t)n * sizeof(int));
    padded_ids(ids, n, n - n / 4, 0);                  // the last quarter is padding
    rng_fill_normal(rng, q, n * FLOW_D, 0.0f, 1.0f);
    rng_fill_normal(rng, k, n * FLOW_D, 0.0f, 1.0f);
    attention_scores(q, k, s, n, n, FLOW_D);
    for (int kind = 0; kind < N_KINDS; kind++) {
        size_t off = (size_t)kind * n * n;
        build_mask(kind, masks + off, ids, n, rng);
        memcpy(w + off, s, (size_t)n * n * sizeof(float));
        softmax_rows_masked(w + off, masks + off, n, n);
    }
    free(q), free(k), free(s), free(ids);
}

static void section_flow(report_t *r, int n, const unsigned char *masks,
                         const float *w) {
    report_section(r, "information flow");
    printf("n = %d, random scores, one layer; effective = weight > %.2f\n", n,
           FLOW_THRESHOLD);
    printf("%-14s %8s %9s %10s %8s %10s\n", "mask", "density", "mean vis",
           "mean dist", "entropy", "farthest");
    for (int k = 0; k < N_KINDS; k++) {
        const unsigned char *m = masks + (size_t)k * n * n;
        mask_stats_t s = mask_stats(m, n, n);
        mask_flow_t f = mask_flow(w + (size_t)k * n * n, n, n, FLOW_THRESHOLD);
        printf("%-14s %8.3f %9.2f %10.2f %8.3f %10d\n", KIND[k], s.density,
               s.mean_visible, f.mean_distance, f.entropy, f.farthest);
        char key[64];
        if (k != K_CAUSAL && k != K_FULL && k != K_BAND) continue;
        snprintf(key, sizeof key, "flow_dist_%s", SHORT[k]);
        report_value(r, key, "%.2f", f.mean_distance);
        snprintf(key, sizeof key, "flow_entropy_%s", SHORT[k]);
        report_value(r, key, "%.3f", f.entropy);
    }
    report_value(r, "flow_n", "%.0f", n);
}

// Receptive field (mean reachable positions) and mean distance of W^L vs depth L.
static void section_depth(report_t *r, int n, const unsigned char *masks,
                          const float *w) {
    size_t nn = (size_t)n * n;
    unsigned char *reach = xmalloc(PROG, nn);
    float *prod = xfloats(PROG, N_KINDS * nn), *tmp = xfloats(PROG, nn);
    double field[DEPTH + 1][N_KINDS], dist[DEPTH + 1][N_KINDS];
    int band_ok = 1, causal_ok = 1;
    memcpy(prod, w, N_KINDS * nn * sizeof(float));
    for (int l = 1; l <= DEPTH; l++)
        for (int k = 0; k < N_KINDS; k++) {
            const unsigned char *m = masks + k * nn;
            xok(PROG, mask_reach(m, n, l, reach), "mask_reach");
            mask_stats_t s = mask_stats(reach, n, n);
            field[l][k] = s.mean_visible;
            if (k == K_BAND)
                band_ok &= s.farthest == (l * BAND < n - 1 ? l * BAND : n - 1);
            if (k == K_CAUSAL) causal_ok &= memcmp(reach, m, nn) == 0;
            if (l > 1) {                                // prod = W prod: one more layer
                mat_mul(w + k * nn, prod + k * nn, tmp, n, n, n);
                memcpy(prod + k * nn, tmp, nn * sizeof(float));
            }
            dist[l][k] = mask_flow(prod + k * nn, n, n, FLOW_THRESHOLD).mean_distance;
        }
    report_section(r, "receptive field vs depth");
    printf("positions a query can draw on after L layers (mean over queries, n = %d)\n",
           n);
    printf("%3s", "L");
    for (int k = 0; k < N_KINDS; k++) printf(" %11s", SHORT[k]);
    printf("\n");
    FILE *f = report_data(r, "depth.dat");
    for (int l = 1; l <= DEPTH; l++) {
        printf("%3d", l);
        for (int k = 0; k < N_KINDS; k++) printf(" %11.2f", field[l][k]);
        printf("\n");
        if (f) fprintf(f, "%d", l);
        for (int k = 0; k < N_KINDS && f; k++)
            fprintf(f, " %.4f %.4f", field[l][k], dist[l][k]);
        if (f) fprintf(f, "\n");
    }
    report_data_close(r, f);
    printf("mean distance information travels, W^L (weights of one layer, stacked)\n");
    for (int l = 1; l <= DEPTH; l += DEPTH - 1) {
        printf("%3d", l);
        for (int k = 0; k < N_KINDS; k++) printf(" %11.2f", dist[l][k]);
        printf("\n");
    }
    report_check_true(r, "band: farthest reach after L layers is min(w L, n - 1)",
                      band_ok);
    report_check_true(r, "causal: one layer already reaches the whole past", causal_ok);
    report_value(r, "band_field_1", "%.2f", field[1][K_BAND]);
    report_value(r, "band_field_max", "%.2f", field[DEPTH][K_BAND]);
    report_value(r, "random_field_2", "%.2f", field[2][K_RANDOM]);
    report_value(r, "depth", "%.0f", DEPTH);
    free(reach), free(prod), free(tmp);
}

// ---------------------------------------------------------------------------
// generating with a KV cache

// The most likely next token for the layer output y (KD,): the id whose
// embedding has the largest dot product with y (tied embeddings), never 0.
static int next_token(const float *y, const float *embed) {
    int best = 1;
    for (int id = 2; id < KV; id++)
        if (mat_dot(y, embed + id * KD, KD) > mat_dot(y, embed + best * KD, KD))
            best = id;
    return best;
}

static void section_kv(report_t *r, int steps, rng_t *rng) {
    mha_params_t p;
    kv_cache_t cache;
    xok(PROG, mha_alloc(&p, KD, KH), "mha_alloc");
    xok(PROG, kv_alloc(&cache, KD, KH, steps), "kv_alloc");
    mha_init(&p, rng);
    float *embed = xfloats(PROG, KV * KD), *x = xfloats(PROG, (size_t)steps * KD);
    float *y = xfloats(PROG, (size_t)steps * KD),
          *full = xfloats(PROG, (size_t)steps * KD);
    unsigned char *causal = xmalloc(PROG, (size_t)steps * steps);
    int *tok = xmalloc(PROG, (size_t)(steps + 1) * sizeof(int)), same = 1;
    rng_fill_normal(rng, embed, KV * KD, 0.0f, 1.0f);
    // snippet: generate
    tok[0] = 1;                                          // the start token
    for (int t = 0; t < steps; t++) {
        memcpy(x + t * KD, embed + tok[t] * KD, KD * sizeof(float));
        kv_step(&p, &cache, x + t * KD, y + t * KD, NULL);    // one new row
        tok[t + 1] = next_token(y + t * KD, embed);
    }
    // end snippet
    // snippet: generate_check
    mask_causal(causal, steps);                          // all at once, as in training
    mha_forward(&p, x, steps, x, steps, causal, full, NULL);
    for (int t = 0; t < steps; t++) {
        same &= next_token(full + t * KD, embed) == tok[t + 1];
    }
    double diff = mat_max_abs_diff(y, full, (size_t)steps * KD);
    // end snippet
    report_section(r, "kv cache");
    printf("d_model %d, %d heads, vocabulary %d, %d steps\n", KD, KH, KV, steps);
    printf("generated:");
    for (int t = 0; t <= steps; t++) printf(" %d", tok[t]);
    printf("\ncache holds %d keys and %d values per head\n", cache.len, cache.len);
    printf("max |cached - full causal| = %.3g\n", diff);
    report_check(r, "cached decoding == full causal computation", diff, 1e-5);
    report_check_true(r, "the same tokens from the full computation", same);
    report_value(r, "kv_steps", "%.0f", steps);
    report_value(r, "kv_diff", "%.2g", diff);
    kv_free(&cache);
    mha_free(&p);
    free(embed), free(x), free(y), free(full), free(causal), free(tok);
}

static void section_kv_cost(report_t *r) {
    enum { T_GEN = 1024 };
    report_section(r, "kv cache cost");
    printf("one layer, d_model = %d: multiply-adds for the t-th token\n", BIG_D);
    printf("%6s %16s %16s %8s\n", "t", "with cache", "without", "ratio");
    FILE *f = report_data(r, "kv_macs.dat");
    for (int t = 1; t <= T_GEN; t *= 2) {
        long long a = kv_macs_cached(BIG_D, t), b = kv_macs_uncached(BIG_D, t);
        if (f) fprintf(f, "%d %lld %lld\n", t, a, b);
        if (t == 1 || t == 16 || t == 128 || t == T_GEN)
            printf("%6d %16lld %16lld %8.1f\n", t, a, b, (double)b / a);
    }
    report_data_close(r, f);
    double sa = 0.0, sb = 0.0;
    int ratio_is_t = 1;
    for (int t = 1; t <= T_GEN; t++) {
        sa += (double)kv_macs_cached(BIG_D, t);
        sb += (double)kv_macs_uncached(BIG_D, t);
        ratio_is_t &= kv_macs_uncached(BIG_D, t) == t * kv_macs_cached(BIG_D, t);
    }
    report_check_true(r, "without / with cache == t, for every t", ratio_is_t);
    printf("all %d tokens: %.4g with cache, %.4g without (%.0f x)\n", T_GEN, sa, sb,
           sb / sa);
    long long per = kv_bytes_per_token(BIG_D, 1);
    long long gpt2 = kv_bytes_per_token(GPT2_D, GPT2_L);
    printf("cache per token and layer, d_model %d, float32: %lld bytes\n", BIG_D, per);
    printf("GPT-2 small (d_model %d, %d layers): %lld bytes per token,\n", GPT2_D,
           GPT2_L, gpt2);
    printf("  %.1f MiB for %d tokens\n", gpt2 * (double)T_GEN / (1024.0 * 1024.0),
           T_GEN);
    report_value(r, "macs_ratio_1024", "%.0f", (double)kv_macs_uncached(BIG_D, T_GEN) /
                                               kv_macs_cached(BIG_D, T_GEN));
    report_value(r, "macs_total_ratio", "%.0f", sb / sa);
    report_value(r, "t_gen", "%.0f", T_GEN);
    report_value(r, "kv_bytes", "%.0f", (double)per);
    report_value(r, "gpt2_bytes", "%.0f", (double)gpt2);
    report_value(r, "gpt2_mib", "%.1f", gpt2 * (double)T_GEN / (1024.0 * 1024.0));
}

// ---------------------------------------------------------------------------

// The N_KINDS masks (N, N) of the first sections, over ids (N,): 5 real tokens.
static void build_masks(unsigned char **masks, int *ids, rng_t *rng) {
    padded_ids(ids, N, 5, 0);
    for (int k = 0; k < N_KINDS; k++) {
        masks[k] = xmalloc(PROG, N * N);
        build_mask(k, masks[k], ids, N, rng);
    }
}

int main(int argc, char **argv) {
    long seq_len = 16, steps = 12;
    const cli_opt_t opts[] = {
        {.name = "--seq-len", .meta = "N",
         .help = "tokens in the information-flow study", .kind = CLI_INT,
         .ival = &seq_len, .min = 4, .max = 256},
        {.name = "--steps", .meta = "N", .help = "tokens to generate with the KV cache",
         .kind = CLI_INT, .ival = &steps, .min = 1, .max = 512},
    };
    cli_t cli = {.program = PROG, .summary = "Chapter 6: masks and the KV cache.",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 42};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);   // --help, bad options: exit
    if (rc >= 0) return rc;
    rng_t rng;
    rng_seed(&rng, cli.seed);
    int ids[N], n = (int)seq_len;
    unsigned char *masks[N_KINDS];
    build_masks(masks, ids, &rng);
    section_kinds(&r, masks, ids);
    section_stats(&r, masks);
    section_conventions(&r, masks[K_CAUSAL]);
    section_additive(&r, &rng);
    section_empty_row(&r, &rng);
    batch_t bt;
    batch_init(&bt, &rng);
    section_batch(&r, &bt);
    unsigned char *fm = xmalloc(PROG, (size_t)N_KINDS * n * n);
    float *fw = xfloats(PROG, (size_t)N_KINDS * n * n);
    flow_weights(n, &rng, fm, fw);
    section_flow(&r, n, fm, fw);
    section_depth(&r, n, fm, fw);
    section_kv(&r, (int)steps, &rng);
    section_kv_cost(&r);
    for (int k = 0; k < N_KINDS; k++) free(masks[k]);
    free(fm), free(fw), free(bt.embed), free(bt.x);
    mha_free(&bt.mha);
    return report_close(&r) == 0 ? 0 : 1;
}
