// ch03_self_attention.c -- chapter 3: self-attention.
//
// A sequence attends to itself. The program walks from the simplified,
// weight-free version to the layer with trainable projections W_Q, W_K, W_V on
// a fixed three-word example, then looks at what the layer costs, draws a
// labelled heatmap, shows that it ignores word order, and sorts attention
// matrices into four kinds of pattern.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "attention/attn_stats.h"
#include "program/cli.h"
#include "layers/linear.h"
#include "base/mat.h"
#include "attention/patterns.h"
#include "program/report.h"
#include "base/rng.h"
#include "attention/self_attention.h"
#include "attention/softmax.h"

static const char *const PROG = "ch03_self_attention";

// ---------------------------------------------------------------------------
// The fixed worked example: three words, four features each.

enum { N_EX = 3, D_EX = 4, DK_EX = 3, DV_EX = 2 };

static const char *const WORDS[N_EX] = {"cat", "hungry", "meows"};

static const float X_EX[N_EX * D_EX] = {
    1.0f, 0.2f, -0.5f, 0.3f,    // cat
    0.5f, 1.2f, 0.1f, -0.7f,    // hungry
    -0.3f, 0.8f, 1.1f, 0.4f,    // meows
};

// snippet: worked_weights
// Hand-picked, not trained: small round numbers that stand in for what
// training would find. Same values for every --seed.
static const float W_Q_EX[D_EX * DK_EX] = {
    0.7f, 0.5f, -0.2f,
    0.5f, -0.7f, 0.6f,
    0.6f, -0.8f, 0.6f,
    0.1f, 0.6f, -0.2f,
};
static const float W_K_EX[D_EX * DK_EX] = {
    0.4f, -0.7f, 0.0f,
    -0.7f, 0.8f, -0.2f,
    0.7f, 0.8f, -0.6f,
    0.2f, 0.7f, 0.4f,
};
static const float W_V_EX[D_EX * DV_EX] = {
    0.6f, -0.2f,
    0.1f, 0.5f,
    -0.3f, 0.7f,
    0.4f, 0.2f,
};
// end snippet

// A second sentence that shares its first word with the example.
static const char *const WORDS_B[N_EX] = {"cat", "sleeps", "quietly"};
static const float X_B[N_EX * D_EX] = {
    1.0f, 0.2f, -0.5f, 0.3f,    // cat: the same vector as above
    -0.6f, -0.4f, 0.9f, 0.8f,   // sleeps
    0.2f, -0.9f, 0.3f, 1.0f,    // quietly
};

// The sentence of the heatmap.
enum { N_TOK = 5 };
static const char *const TOKENS[N_TOK] = {"I", "love", "machine", "learning", "."};

// ---------------------------------------------------------------------------
// Small helpers

// Index of the largest of x[0..n-1].
static int argmax(const float *x, int n) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[best]) best = i;
    return best;
}

// Largest |a - b| over n entries.
static double max_abs_diff(const float *a, const float *b, int n) {
    double worst = 0.0;
    for (int i = 0; i < n; i++)
        if (fabs((double)a[i] - b[i]) > worst) worst = fabs((double)a[i] - b[i]);
    return worst;
}

// Copy fixed weights into an allocated parameter struct.
static void set_params(self_attn_params_t *p, const float *wq, const float *wk,
                       const float *wv) {
    memcpy(p->w_q, wq, sizeof(float) * (size_t)p->d_model * p->d_k);
    memcpy(p->w_k, wk, sizeof(float) * (size_t)p->d_model * p->d_k);
    memcpy(p->w_v, wv, sizeof(float) * (size_t)p->d_model * p->d_v);
}

// Print a label and two numbers: one row of a (n, 2) matrix.
static void print_pair(const char *label, const float *xy) {
    char b0[32], b1[32];
    printf("%-30s %9s %9s\n", label, report_fmt_fixed(b0, sizeof b0, xy[0], 4),
           report_fmt_fixed(b1, sizeof b1, xy[1], 4));
}

// Print a labelled matrix under a caption line; gap: a blank line first.
static void show(int gap, const char *caption, const float *a, int n, int m,
                 const char *const *rows, const char *const *cols) {
    printf("%s%s\n", gap ? "\n" : "", caption);
    report_print_matrix(a, n, m, 9, 4, rows, cols);
}

// ---------------------------------------------------------------------------
// Costs of one layer over a sequence of n vectors of width d (no biases).

typedef struct {
    const char *name;
    double params, macs, sequential, path;
} layer_cost_t;

// snippet: layer_costs
// Three layers over n vectors of width d, without biases: self-attention with
// d_k = d_v = d; an Elman RNN h_t = tanh(x_t W_x + h_{t-1} W_h); a fully
// connected layer from the flattened sequence (n d numbers) to n d numbers.
// macs: multiply-adds. sequential: steps that must wait for the one before.
// path: steps a signal needs, at worst, from one position to another.
static void layer_costs(double n, double d, layer_cost_t cost[3]) {
    cost[0] = (layer_cost_t){"self-attention", 3 * d * d,
                           3 * n * d * d + 2 * n * n * d, 1, 1};
    cost[1] = (layer_cost_t){"RNN", 2 * d * d, 2 * n * d * d, n, n - 1};
    cost[2] = (layer_cost_t){"fully connected", n * n * d * d, n * n * d * d, 1, 1};
}
// end snippet

// ---------------------------------------------------------------------------
// Constructed attention matrices, one per pattern, all softmax of scores.

// snippet: pattern_examples
// w (n, n) <- softmax of the scores of one pattern, row by row.
static void make_pattern(float *w, int n, pattern_kind_t kind, rng_t *rng) {
    for (int i = 0; i < n; i++) {
        float *row = w + i * n;
        for (int j = 0; j < n; j++) {
            float dist = (float)abs(i - j);
            if (kind == PATTERN_DIAGONAL) row[j] = -3.0f * dist;          // sharp peak
            else if (kind == PATTERN_LOCAL) row[j] = -0.5f * dist * dist;  // wide peak
            else row[j] = 0.1f * rng_normal(rng);                          // flat
        }
        if (kind == PATTERN_SPARSE)   // two far keys stand out: +3 over ln n
            for (int hits = 0; hits < 2;) {
                int j = (int)(rng_uniform(rng) * (float)n);
                if (j < n && abs(i - j) > PATTERN_RADIUS && row[j] < 1.0f) {
                    row[j] = 3.0f + logf((float)n);
                    hits++;
                }
            }
    }
    softmax_rows(w, n, n);
}
// end snippet

// ---------------------------------------------------------------------------
// Buffers: everything the program allocates, freed in one place.

typedef struct {
    float *x_tok, *q_tok, *k_tok, *v_tok, *w_tok, *o_tok;    // heatmap sentence
    float *x, *xp, *q, *k, *v, *w, *o, *wp, *op;             // random sequence
    float *w_simple;                                         // its no-weight map
    float *o_simple;
    float *pat[4];                                           // constructed patterns
    int *perm;
} buffers_t;

static void free_buffers(buffers_t *b) {
    float **f[] = {&b->x_tok, &b->q_tok, &b->k_tok, &b->v_tok, &b->w_tok, &b->o_tok,
                   &b->x, &b->xp, &b->q, &b->k, &b->v, &b->w, &b->o, &b->wp, &b->op,
                   &b->w_simple, &b->o_simple, &b->pat[0], &b->pat[1], &b->pat[2],
                   &b->pat[3]};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        free(*f[i]);
        *f[i] = NULL;
    }
    free(b->perm);
    b->perm = NULL;
}

// Returns 0, or -1 (and frees everything) if memory runs out.
static int alloc_buffers(buffers_t *b, int n, int d) {
    size_t nd = (size_t)n * d, nn = (size_t)n * n, td = (size_t)N_TOK * d;
    memset(b, 0, sizeof *b);
    int ok = 1;
#define ALLOC(p, count) ok = ok && ((p) = calloc((count), sizeof *(p))) != NULL
    ALLOC(b->x_tok, td);
    ALLOC(b->q_tok, td);
    ALLOC(b->k_tok, td);
    ALLOC(b->v_tok, td);
    ALLOC(b->w_tok, (size_t)N_TOK * N_TOK);
    ALLOC(b->o_tok, td);
    ALLOC(b->x, nd);
    ALLOC(b->xp, nd);
    ALLOC(b->q, nd);
    ALLOC(b->k, nd);
    ALLOC(b->v, nd);
    ALLOC(b->w, nn);
    ALLOC(b->o, nd);
    ALLOC(b->wp, nn);
    ALLOC(b->op, nd);
    ALLOC(b->w_simple, nn);
    ALLOC(b->o_simple, nd);
    for (int i = 0; i < 4; i++) ALLOC(b->pat[i], nn);
    ALLOC(b->perm, (size_t)n);
#undef ALLOC
    if (!ok) {
        free_buffers(b);
        return -1;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// The pattern table

static void pattern_row(report_t *r, const char *name, const char *key,
                        const float *w, int n) {
    pattern_stats_t s;
    pattern_measure(w, n, &s);
    const char *kind = pattern_name(pattern_classify(&s));
    printf("%-22s %4d %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f  %s\n", name, n,
           s.locality, s.diag, s.sparsity, s.entropy, s.entropy_ratio, s.max_weight,
           kind);
    char k[64];
    snprintf(k, sizeof k, "pat_%s_class", key);
    report_text(r, k, kind);
    snprintf(k, sizeof k, "pat_%s_locality", key);
    report_value(r, k, "%.3f", s.locality);
    snprintf(k, sizeof k, "pat_%s_diag", key);
    report_value(r, k, "%.3f", s.diag);
    snprintf(k, sizeof k, "pat_%s_sparsity", key);
    report_value(r, k, "%.3f", s.sparsity);
    snprintf(k, sizeof k, "pat_%s_entropy", key);
    report_value(r, k, "%.3f", s.entropy);
    snprintf(k, sizeof k, "pat_%s_ratio", key);
    report_value(r, k, "%.3f", s.entropy_ratio);
    snprintf(k, sizeof k, "pat_%s_max", key);
    report_value(r, k, "%.3f", s.max_weight);
}

// ---------------------------------------------------------------------------

int main(int argc, char **argv) {
    long seq_len = 12, d_model = 16;
    cli_opt_t opts[] = {
        {"--seq-len", "N", "length of the random sequences", CLI_INT, &seq_len, NULL,
         8, 512},
        {"--d-model", "N", "width of the random token vectors", CLI_INT, &d_model, NULL,
         2, 256},
    };
    cli_t cli = {.program = PROG,
                 .summary = "Chapter 3: self-attention, from no weights to W_Q W_K W_V",
                 .opts = opts,
                 .n_opts = 2,
                 .seed = 3};
    int status = cli_parse(&cli, argc, argv);
    if (status == CLI_ERROR) return 2;
    if (status == CLI_DONE) return 0;

    report_t r;
    if (report_open(&r, PROG, cli.data_dir) != 0) return 2;
    rng_t rng;
    rng_seed(&rng, cli.seed);
    const int n = (int)seq_len, d = (int)d_model;

    buffers_t b;
    self_attn_params_t ex = {0}, layer = {0};
    if (alloc_buffers(&b, n, d) != 0 || self_attn_alloc(&ex, D_EX, DK_EX, DV_EX, 0) ||
        self_attn_alloc(&layer, d, d, d, 0)) {
        fprintf(stderr, "%s: out of memory (--seq-len %d, --d-model %d)\n", PROG, n, d);
        free_buffers(&b);
        self_attn_free(&ex);
        self_attn_free(&layer);
        report_close(&r);
        return 1;
    }
    set_params(&ex, W_Q_EX, W_K_EX, W_V_EX);
    const char *const feat[D_EX] = {"f1", "f2", "f3", "f4"};
    const char *const kcol[DK_EX] = {"d1", "d2", "d3"};

    // ----------------------------------------------------------------------
    report_section(&r, "input");
    show(0, "X (3 words x 4 features):", X_EX, N_EX, D_EX, WORDS, feat);

    // ----------------------------------------------------------------------
    report_section(&r, "simplified");
    float s_simple[N_EX * N_EX], w_simple[N_EX * N_EX], o_simple[N_EX * D_EX];
    attention_scores(X_EX, X_EX, s_simple, N_EX, N_EX, D_EX);
    self_attn_simple(X_EX, NULL, o_simple, w_simple, N_EX, D_EX);
    show(0, "scores X X^T / sqrt(4):", s_simple, N_EX, N_EX, WORDS, WORDS);
    show(1, "weights softmax(scores):", w_simple, N_EX, N_EX, WORDS, WORDS);
    show(1, "outputs weights X (3 x 4):", o_simple, N_EX, D_EX, WORDS, feat);
    for (int i = 0; i < N_EX; i++) {
        char key[64];
        snprintf(key, sizeof key, "simple_self_%s", WORDS[i]);
        report_value(&r, key, "%.4f", w_simple[i * N_EX + i]);
        snprintf(key, sizeof key, "simple_norm2_%s", WORDS[i]);
        report_value(&r, key, "%.2f", mat_dot(X_EX + i * D_EX, X_EX + i * D_EX, D_EX));
    }
    report_value(&r, "simple_score_cat_cat", "%.4f", s_simple[0]);
    report_value(&r, "simple_score_cat_hungry", "%.4f", s_simple[1]);
    report_value(&r, "simple_diag", "%.4f", attn_diag_strength(w_simple, N_EX));

    // ----------------------------------------------------------------------
    // ----------------------------------------------------------------------
    report_section(&r, "queries keys values");
    float q[N_EX * DK_EX], k[N_EX * DK_EX], v[N_EX * DV_EX];
    float scores[N_EX * N_EX], weights[N_EX * N_EX], out[N_EX * DV_EX];
    self_attn_forward(&ex, X_EX, NULL, q, k, v, weights, out, N_EX);
    show(0, "Q = X W_Q (3 x 3):", q, N_EX, DK_EX, WORDS, kcol);
    show(1, "K = X W_K (3 x 3):", k, N_EX, DK_EX, WORDS, kcol);
    show(1, "V = X W_V (3 x 2):", v, N_EX, DV_EX, WORDS, kcol);
    report_value(&r, "q_cat_1", "%.2f", q[0]);

    // ----------------------------------------------------------------------
    report_section(&r, "scores and weights");
    attention_scores(q, k, scores, N_EX, N_EX, DK_EX);
    show(0, "scores Q K^T / sqrt(3):", scores, N_EX, N_EX, WORDS, WORDS);
    show(1, "weights softmax(scores), one row per query:", weights, N_EX, N_EX, WORDS,
         WORDS);
    printf("\nlargest |row sum - 1| = %.1e\n", attn_row_sum_error(weights, N_EX, N_EX));
    for (int i = 0; i < N_EX; i++) {
        int j = argmax(weights + i * N_EX, N_EX);
        printf("%-7s looks most at %-7s (weight %.4f)\n", WORDS[i], WORDS[j],
               weights[i * N_EX + j]);
    }
    for (int i = 0; i < N_EX; i++)
        for (int j = 0; j < N_EX; j++) {
            char key[64];
            snprintf(key, sizeof key, "w_%s_%s", WORDS[i], WORDS[j]);
            report_value(&r, key, "%.4f", weights[i * N_EX + j]);
            snprintf(key, sizeof key, "s_%s_%s", WORDS[i], WORDS[j]);
            report_value(&r, key, "%.4f", scores[i * N_EX + j]);
        }
    report_value(&r, "proj_diag", "%.4f", attn_diag_strength(weights, N_EX));

    // ----------------------------------------------------------------------
    report_section(&r, "outputs");
    show(0, "outputs weights V (3 x 2):", out, N_EX, DV_EX, WORDS, kcol);
    {
        const int i = 2;   // meows, spelled out as a weighted sum of value rows
        printf("\nmeows = %.4f v(cat) + %.4f v(hungry) + %.4f v(meows)\n",
               weights[i * N_EX], weights[i * N_EX + 1], weights[i * N_EX + 2]);
        double o0 = 0, o1 = 0;
        for (int j = 0; j < N_EX; j++) {
            o0 += (double)weights[i * N_EX + j] * v[j * DV_EX];
            o1 += (double)weights[i * N_EX + j] * v[j * DV_EX + 1];
        }
        char b0[32], b1[32];
        printf("      = [%s, %s]\n", report_fmt_fixed(b0, sizeof b0, o0, 4),
               report_fmt_fixed(b1, sizeof b1, o1, 4));
    }
    for (int i = 0; i < N_EX; i++)
        for (int j = 0; j < DV_EX; j++) {
            char key[64];
            snprintf(key, sizeof key, "out_%s_%d", WORDS[i], j + 1);
            report_value(&r, key, "%.4f", out[i * DV_EX + j]);
            snprintf(key, sizeof key, "v_%s_%d", WORDS[i], j + 1);
            report_value(&r, key, "%.4f", v[i * DV_EX + j]);
        }

    // ----------------------------------------------------------------------
    report_section(&r, "context");
    {
        float qb[N_EX * DK_EX], kb[N_EX * DK_EX], vb[N_EX * DV_EX];
        float wb[N_EX * N_EX], ob[N_EX * DV_EX];
        self_attn_forward(&ex, X_B, NULL, qb, kb, vb, wb, ob, N_EX);
        printf("%-30s %9s %9s\n", "output row of \"cat\"", "d1", "d2");
        print_pair("in: cat hungry meows", out);
        print_pair("in: cat sleeps quietly", ob);
        print_pair("alone (its own V row)", v);
        int j = argmax(wb, N_EX);
        printf("in the second sentence cat looks most at %s (weight %.4f)\n",
               WORDS_B[j], wb[j]);
        report_value(&r, "ctx_b_cat_1", "%.4f", ob[0]);
        report_value(&r, "ctx_b_cat_2", "%.4f", ob[1]);
        report_text(&r, "ctx_b_cat_top", WORDS_B[j]);
        report_value(&r, "ctx_b_cat_top_w", "%.4f", wb[j]);
    }

    // ----------------------------------------------------------------------
    report_section(&r, "complexity");
    {
        layer_cost_t cost[3];
        layer_costs((double)n, (double)d, cost);
        printf("one layer over n = %d vectors of width d = %d\n\n", n, d);
        printf("%-16s %14s %16s %10s %6s\n", "layer", "parameters", "multiply-adds",
               "sequential", "path");
        for (int i = 0; i < 3; i++)
            printf("%-16s %14.0f %16.0f %10.0f %6.0f\n", cost[i].name, cost[i].params,
                   cost[i].macs, cost[i].sequential, cost[i].path);
        const char *keys[3] = {"sa", "rnn", "fc"};
        for (int i = 0; i < 3; i++) {
            char key[64];
            snprintf(key, sizeof key, "cost_%s_params", keys[i]);
            report_value(&r, key, "%.0f", cost[i].params);
            snprintf(key, sizeof key, "cost_%s_macs", keys[i]);
            report_value(&r, key, "%.0f", cost[i].macs);
            snprintf(key, sizeof key, "cost_%s_seq", keys[i]);
            report_value(&r, key, "%.0f", cost[i].sequential);
            snprintf(key, sizeof key, "cost_%s_path", keys[i]);
            report_value(&r, key, "%.0f", cost[i].path);
        }
        report_value(&r, "cost_n", "%.0f", n);
        report_value(&r, "cost_d", "%.0f", d);
    }

    // ----------------------------------------------------------------------
    // A random layer: Xavier-initialised W_Q, W_K, W_V of size d x d, and
    // random N(0, 1) token vectors. Not trained: the pattern is the seed's.
    report_section(&r, "token heatmap");
    rng_fill_normal(&rng, b.x_tok, N_TOK * d, 0.0f, 1.0f);
    self_attn_init(&layer, &rng);
    self_attn_forward(&layer, b.x_tok, NULL, b.q_tok, b.k_tok, b.v_tok, b.w_tok,
                      b.o_tok, N_TOK);
    printf("random token vectors (d = %d), Xavier W_Q, W_K, W_V, seed %llu\n", d,
           (unsigned long long)cli.seed);
    report_print_matrix(b.w_tok, N_TOK, N_TOK, 9, 4, TOKENS, TOKENS);
    printf("largest |row sum - 1| = %.1e\n", attn_row_sum_error(b.w_tok, N_TOK, N_TOK));
    {
        int best = argmax(b.w_tok, N_TOK * N_TOK);   // strongest cell
        int bi = best / N_TOK, bj = best % N_TOK;
        report_text(&r, "heat_top_q", TOKENS[bi]);
        report_text(&r, "heat_top_k", TOKENS[bj]);
        report_value(&r, "heat_top_w", "%.4f", b.w_tok[bi * N_TOK + bj]);
    }
    report_value(&r, "heat_d", "%.0f", d);
    report_value(&r, "seed", "%.0f", (double)cli.seed);
    FILE *f = report_data(&r, "heatmap.dat");
    report_write_matrix(f, b.w_tok, N_TOK, N_TOK, TOKENS, TOKENS);
    report_data_close(&r, f);

    // ----------------------------------------------------------------------
    report_section(&r, "permutation");
    {
        // (a) The worked example, read backwards.
        const int rev[N_EX] = {2, 1, 0};   // new row i is old row rev[i]
        float xr[N_EX * D_EX], qr[N_EX * DK_EX], kr[N_EX * DK_EX], vr[N_EX * DV_EX];
        float wr[N_EX * N_EX], orr[N_EX * DV_EX];
        for (int i = 0; i < N_EX; i++)
            memcpy(xr + i * D_EX, X_EX + rev[i] * D_EX, sizeof(float) * D_EX);
        self_attn_forward(&ex, xr, NULL, qr, kr, vr, wr, orr, N_EX);
        printf("%-8s %19s  %19s\n", "input:", "cat hungry meows", "meows hungry cat");
        printf("%-8s %9s %9s  %9s %9s\n", "output", "d1", "d2", "d1", "d2");
        for (int i = 0; i < N_EX; i++) {
            int ir = N_EX - 1 - i;   // where word i sits in the reversed input
            printf("%-8s %9.4f %9.4f  %9.4f %9.4f\n", WORDS[i], out[i * 2],
                   out[i * 2 + 1], orr[ir * 2], orr[ir * 2 + 1]);
        }
        double worst_ex = 0.0;
        for (int i = 0; i < N_EX; i++)
            worst_ex = fmax(worst_ex, max_abs_diff(out + i * DV_EX,
                                                   orr + rev[i] * DV_EX, DV_EX));
        printf("largest difference: %.1e\n\n", worst_ex);

        // (b) A random sequence of n vectors, shuffled at random.
        rng_fill_normal(&rng, b.x, n * d, 0.0f, 1.0f);
        for (int i = 0; i < n; i++) b.perm[i] = i;
        for (int i = n - 1; i > 0; i--) {   // Fisher-Yates shuffle
            int j = (int)(rng_uniform(&rng) * (float)(i + 1));
            if (j > i) j = i;
            int t = b.perm[i];
            b.perm[i] = b.perm[j];
            b.perm[j] = t;
        }
        // snippet: permutation_check
        // x_p: row i of the shuffled input is row perm[i] of x.
        for (int i = 0; i < n; i++)
            memcpy(b.xp + i * d, b.x + b.perm[i] * d, sizeof(float) * (size_t)d);
        self_attn_forward(&layer, b.x, NULL, b.q, b.k, b.v, b.w, b.o, n);
        self_attn_forward(&layer, b.xp, NULL, b.q, b.k, b.v, b.wp, b.op, n);
        // Equivariance: out(x_p)[i] == out(x)[perm[i]] and
        //               weights(x_p)[i][j] == weights(x)[perm[i]][perm[j]].
        double worst_out = 0.0, worst_w = 0.0;
        for (int i = 0; i < n; i++) {
            const float *mine = b.op + i * d, *orig = b.o + b.perm[i] * d;
            worst_out = fmax(worst_out, max_abs_diff(mine, orig, d));
            for (int j = 0; j < n; j++) {
                double diff = b.wp[i * n + j] - b.w[b.perm[i] * n + b.perm[j]];
                worst_w = fmax(worst_w, fabs(diff));
            }
        }
        // end snippet
        printf("random sequence: n = %d, d = %d\nshuffled order:", n, d);
        for (int i = 0; i < n && i < 8; i++) printf(" %d", b.perm[i]);
        printf("%s\n", n > 8 ? " ..." : "");
        printf("largest |out(shuffled)[i] - out(x)[perm[i]]|          = %.1e\n",
               worst_out);
        printf("largest |w(shuffled)[i][j] - w(x)[perm[i]][perm[j]]| = %.1e\n",
               worst_w);
        double mean_abs = 0.0;
        for (int i = 0; i < n * d; i++) mean_abs += fabs(b.o[i]);
        mean_abs /= (double)n * d;
        printf("for scale: mean |out| = %.4f\n", mean_abs);
        report_value(&r, "perm_ex_diff", "%.1e", worst_ex);
        report_value(&r, "perm_out_diff", "%.1e", worst_out);
        report_value(&r, "perm_w_diff", "%.1e", worst_w);
        report_value(&r, "perm_mean_abs", "%.4f", mean_abs);
        report_value(&r, "perm_n", "%.0f", n);
        report_value(&r, "perm_d", "%.0f", d);
    }

    // ----------------------------------------------------------------------
    report_section(&r, "patterns");
    {
        const pattern_kind_t kinds[4] = {PATTERN_DIAGONAL, PATTERN_LOCAL, PATTERN_GLOBAL,
                                       PATTERN_SPARSE};
        for (int i = 0; i < 4; i++) make_pattern(b.pat[i], n, kinds[i], &rng);
        self_attn_simple(b.x, NULL, b.o_simple, b.w_simple, n, d);

        printf("%-22s %4s %6s %6s %6s %6s %6s %6s  %s\n", "matrix", "n", "local",
               "diag", "sparse", "H", "H/lnn", "max", "class");
        for (int i = 0; i < 4; i++) {
            char name[32], key[32];
            snprintf(name, sizeof name, "made %s", pattern_name(kinds[i]));
            snprintf(key, sizeof key, "made_%s", pattern_name(kinds[i]));
            pattern_row(&r, name, key, b.pat[i], n);
        }
        pattern_row(&r, "example, no weights", "ex_simple", w_simple, N_EX);
        pattern_row(&r, "example, W_Q W_K W_V", "ex_proj", weights, N_EX);
        pattern_row(&r, "I love machine ...", "tokens", b.w_tok, N_TOK);
        pattern_row(&r, "random x, no weights", "rand_simple", b.w_simple, n);
        pattern_row(&r, "random x, Xavier W", "rand_proj", b.w, n);

        const char *files[4] = {"pattern_diagonal.dat", "pattern_local.dat",
                                "pattern_global.dat", "pattern_sparse.dat"};
        for (int i = 0; i < 4; i++) {
            FILE *pf = report_data(&r, files[i]);
            report_write_matrix(pf, b.pat[i], n, n, NULL, NULL);
            report_data_close(&r, pf);
        }
        report_value(&r, "pat_n", "%.0f", n);
        report_value(&r, "pat_ln_n", "%.3f", log((double)n));
        report_value(&r, "pat_small", "%.4f", PATTERN_SMALL / n);
    }

    free_buffers(&b);
    self_attn_free(&ex);
    self_attn_free(&layer);
    return report_close(&r) == 0 ? 0 : 1;
}
