// ch03_self_attention.c -- chapter 3: self-attention.
//
// A sequence attends to itself. The program walks from the simplified,
// weight-free version to the layer with trainable projections W_Q, W_K, W_V on
// a fixed three-word example, then looks at what the layer costs, draws a
// labelled heatmap, shows that it ignores word order, sorts attention
// matrices into four kinds of pattern, and finally trains W_Q and W_K so that
// every token attends to the one before it.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "attention/attn_stats.h"
#include "program/program.h"
#include "base/linear.h"
#include "layers/qk_train.h"
#include "base/mat.h"
#include "attention/patterns.h"
#include "program/report.h"
#include "base/rng.h"
#include "attention/self_attention.h"
#include "attention/softmax.h"
#include "program/xalloc.h"

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
    double params, macs, sequential, path, memory;
} layer_cost_t;

enum { N_LAYERS = 4, CONV_K = 3 };   // the convolution's kernel width

// snippet: layer_costs
// Four layers over n vectors of width d, without biases: self-attention with
// d_k = d_v = d; an Elman RNN h_t = tanh(x_t W_x + h_{t-1} W_h); a 1-D
// convolution with a centred kernel of CONV_K positions; a fully connected
// layer from the flattened sequence (n d numbers) to n d numbers.
// macs: multiply-adds. sequential: steps that must wait for the one before.
// path: steps a signal needs, at worst, from one position to another (a
// convolution reaches (CONV_K - 1) / 2 positions further per layer).
// memory: numbers the layer produces on the way (kept for training).
static void layer_costs(double n, double d, layer_cost_t cost[N_LAYERS]) {
    const double k = CONV_K, reach = (CONV_K - 1) / 2;
    cost[0] = (layer_cost_t){"self-attention", 3 * d * d, 3 * n * d * d + 2 * n * n * d,
                             1, 1, 3 * n * d + n * n + n * d};   // q k v, weights, out
    cost[1] = (layer_cost_t){"RNN", 2 * d * d, 2 * n * d * d, n, n - 1, n * d};
    cost[2] = (layer_cost_t){"convolution k=3", k * d * d, k * n * d * d, 1,
                             ceil((n - 1) / reach), n * d};
    cost[3] = (layer_cost_t){
            "fully connected", n * n * d * d, n * n * d * d, 1, 1, n * d};
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
// What the sections share, set up once in main.

typedef struct {   // the three-word worked example
    self_attn_params_t p;                                 // W_Q_EX, W_K_EX, W_V_EX
    float w_simple[N_EX * N_EX];                          // no-weight attention map
    float q[N_EX * DK_EX], k[N_EX * DK_EX], v[N_EX * DV_EX];
    float w[N_EX * N_EX], out[N_EX * DV_EX];              // with W_Q, W_K, W_V
} example_t;

typedef struct {   // a random layer over random sequences (--seq-len, --d-model)
    int n, d;
    uint64_t seed;
    self_attn_params_t layer;                             // Xavier W_Q, W_K, W_V (d, d)
    float *w_tok;                                         // (N_TOK, N_TOK) heatmap
    float *x, *w;                                         // (n, d) input, its weights
} random_t;

static example_t *example_new(void) {
    example_t *ex = xmalloc(PROG, sizeof *ex);
    memset(ex, 0, sizeof *ex);
    xok(PROG, self_attn_alloc(&ex->p, D_EX, DK_EX, DV_EX, 0), "self_attn_alloc");
    set_params(&ex->p, W_Q_EX, W_K_EX, W_V_EX);
    return ex;
}

static void example_free(example_t *ex) {
    self_attn_free(&ex->p);
    free(ex);
}

static random_t random_new(int n, int d, uint64_t seed) {
    random_t rd = {.n = n, .d = d, .seed = seed};
    xok(PROG, self_attn_alloc(&rd.layer, d, d, d, 0), "self_attn_alloc");
    rd.w_tok = xfloats(PROG, N_TOK * N_TOK);
    rd.x = xfloats(PROG, (size_t)n * d);
    rd.w = xfloats(PROG, (size_t)n * n);
    return rd;
}

static void random_free(random_t *rd) {
    self_attn_free(&rd->layer);
    free(rd->w_tok);
    free(rd->x);
    free(rd->w);
}

// ---------------------------------------------------------------------------
// The pattern table

// Is `field` one of the space-separated words of `list`?
static int listed(const char *list, const char *field) {
    size_t len = strlen(field);
    for (const char *p = strstr(list, field); p; p = strstr(p + 1, field))
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return 1;
    return 0;
}

// One row of the pattern table; records as "pat_KEY_FIELD" the fields named in
// `record` (class locality diag sparsity entropy ratio max) that the prose quotes.
static void pattern_row(report_t *r, const char *name, const char *key,
                        const float *w, int n, const char *record) {
    pattern_stats_t s;
    pattern_measure(w, n, &s);
    const char *kind = pattern_name(pattern_classify(&s));
    printf("%-22s %4d %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f  %s\n", name, n,
           s.locality, s.diag, s.sparsity, s.entropy, s.entropy_ratio, s.max_weight,
           kind);
    char k[64];
    snprintf(k, sizeof k, "pat_%s_class", key);
    if (listed(record, "class")) report_text(r, k, kind);
    const struct { const char *name; double v; } fields[] = {
        {"locality", s.locality}, {"diag", s.diag}, {"sparsity", s.sparsity},
        {"entropy", s.entropy}, {"ratio", s.entropy_ratio}, {"max", s.max_weight}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        snprintf(k, sizeof k, "pat_%s_%s", key, fields[i].name);
        if (listed(record, fields[i].name)) report_value(r, k, "%.3f", fields[i].v);
    }
}

// ---------------------------------------------------------------------------
// The worked example, step by step

static const char *const FEAT[D_EX] = {"f1", "f2", "f3", "f4"};
static const char *const KCOL[DK_EX] = {"d1", "d2", "d3"};

static void section_input(report_t *r) {
    report_section(r, "input");
    show(0, "X (3 words x 4 features):", X_EX, N_EX, D_EX, WORDS, FEAT);
    report_value(r, "ex_n", "%.0f", N_EX);      // the shapes of the Q, K, V diagram
    report_value(r, "ex_d", "%.0f", D_EX);
    report_value(r, "ex_dk", "%.0f", DK_EX);
    report_value(r, "ex_dv", "%.0f", DV_EX);
}

static void section_simplified(report_t *r, example_t *ex) {
    report_section(r, "simplified");
    float s_simple[N_EX * N_EX], o_simple[N_EX * D_EX];
    attention_scores(X_EX, X_EX, s_simple, N_EX, N_EX, D_EX);
    self_attn_simple(X_EX, NULL, o_simple, ex->w_simple, N_EX, D_EX);
    show(0, "scores X X^T / sqrt(4):", s_simple, N_EX, N_EX, WORDS, WORDS);
    show(1, "weights softmax(scores):", ex->w_simple, N_EX, N_EX, WORDS, WORDS);
    show(1, "outputs weights X (3 x 4):", o_simple, N_EX, D_EX, WORDS, FEAT);
    for (int i = 0; i < N_EX; i++) {
        char key[64];
        snprintf(key, sizeof key, "simple_self_%s", WORDS[i]);
        report_value(r, key, "%.4f", ex->w_simple[i * N_EX + i]);
    }
    report_value(r, "simple_norm2_cat", "%.2f", mat_dot(X_EX, X_EX, D_EX));
    report_value(r, "simple_score_cat_cat", "%.4f", s_simple[0]);
    report_value(r, "simple_diag", "%.4f", attn_diag_strength(ex->w_simple, N_EX));
}

static void section_qkv(report_t *r, example_t *ex) {
    report_section(r, "queries keys values");
    self_attn_forward(&ex->p, X_EX, NULL, ex->q, ex->k, ex->v, ex->w, ex->out, N_EX);
    show(0, "Q = X W_Q (3 x 3):", ex->q, N_EX, DK_EX, WORDS, KCOL);
    show(1, "K = X W_K (3 x 3):", ex->k, N_EX, DK_EX, WORDS, KCOL);
    show(1, "V = X W_V (3 x 2):", ex->v, N_EX, DV_EX, WORDS, KCOL);
    report_value(r, "q_cat_1", "%.2f", ex->q[0]);
}

static void section_scores(report_t *r, const example_t *ex) {
    report_section(r, "scores and weights");
    float scores[N_EX * N_EX];
    attention_scores(ex->q, ex->k, scores, N_EX, N_EX, DK_EX);
    show(0, "scores Q K^T / sqrt(3):", scores, N_EX, N_EX, WORDS, WORDS);
    show(1, "weights softmax(scores), one row per query:", ex->w, N_EX, N_EX, WORDS,
         WORDS);
    printf("\n");
    report_check(r, "largest |row sum - 1|", attn_row_sum_error(ex->w, N_EX, N_EX),
                 1e-6);
    for (int i = 0; i < N_EX; i++) {
        int j = argmax(ex->w + i * N_EX, N_EX);
        printf("%-7s looks most at %-7s (weight %.4f)\n", WORDS[i], WORDS[j],
               ex->w[i * N_EX + j]);
    }
    // The cells the prose quotes: (query, key) word indices.
    const int w_cells[4][2] = {{0, 1}, {0, 2}, {1, 0}, {2, 0}};
    const int s_cells[3][2] = {{2, 0}, {2, 1}, {2, 2}};
    char key[64];
    for (int c = 0; c < 4; c++) {
        int i = w_cells[c][0], j = w_cells[c][1];
        snprintf(key, sizeof key, "w_%s_%s", WORDS[i], WORDS[j]);
        report_value(r, key, "%.4f", ex->w[i * N_EX + j]);
    }
    for (int c = 0; c < 3; c++) {
        int i = s_cells[c][0], j = s_cells[c][1];
        snprintf(key, sizeof key, "s_%s_%s", WORDS[i], WORDS[j]);
        report_value(r, key, "%.4f", scores[i * N_EX + j]);
    }
    report_value(r, "proj_diag", "%.4f", attn_diag_strength(ex->w, N_EX));
}

static void section_outputs(report_t *r, const example_t *ex) {
    report_section(r, "outputs");
    show(0, "outputs weights V (3 x 2):", ex->out, N_EX, DV_EX, WORDS, KCOL);
    const float *w = ex->w + 2 * N_EX;   // meows, spelled out as a weighted sum
    printf("\nmeows = %.4f v(cat) + %.4f v(hungry) + %.4f v(meows)\n", w[0], w[1],
           w[2]);
    double o0 = 0, o1 = 0;
    for (int j = 0; j < N_EX; j++) {
        o0 += (double)w[j] * ex->v[j * DV_EX];
        o1 += (double)w[j] * ex->v[j * DV_EX + 1];
    }
    char b0[32], b1[32];
    printf("      = [%s, %s]\n", report_fmt_fixed(b0, sizeof b0, o0, 4),
           report_fmt_fixed(b1, sizeof b1, o1, 4));
    for (int i = 0; i < N_EX; i += 2)   // cat and meows
        for (int j = 0; j < DV_EX; j++) {
            char key[64];
            snprintf(key, sizeof key, "out_%s_%d", WORDS[i], j + 1);
            report_value(r, key, "%.4f", ex->out[i * DV_EX + j]);
            snprintf(key, sizeof key, "v_%s_%d", WORDS[i], j + 1);
            report_value(r, key, "%.4f", ex->v[i * DV_EX + j]);
        }
}

static void section_context(report_t *r, const example_t *ex) {
    report_section(r, "context");
    float qb[N_EX * DK_EX], kb[N_EX * DK_EX], vb[N_EX * DV_EX];
    float wb[N_EX * N_EX], ob[N_EX * DV_EX];
    self_attn_forward(&ex->p, X_B, NULL, qb, kb, vb, wb, ob, N_EX);
    printf("%-30s %9s %9s\n", "output row of \"cat\"", "d1", "d2");
    print_pair("in: cat hungry meows", ex->out);
    print_pair("in: cat sleeps quietly", ob);
    print_pair("alone (its own V row)", ex->v);
    int j = argmax(wb, N_EX);
    printf("in the second sentence cat looks most at %s (weight %.4f)\n", WORDS_B[j],
           wb[j]);
    report_value(r, "ctx_b_cat_1", "%.4f", ob[0]);
    report_value(r, "ctx_b_cat_2", "%.4f", ob[1]);
    report_text(r, "ctx_b_cat_top", WORDS_B[j]);
    report_value(r, "ctx_b_cat_top_w", "%.4f", wb[j]);
}

// ---------------------------------------------------------------------------
// What a layer costs

static void section_complexity(report_t *r, int n, int d) {
    report_section(r, "complexity");
    layer_cost_t cost[N_LAYERS];
    layer_costs((double)n, (double)d, cost);
    printf("one layer over n = %d vectors of width d = %d\n\n", n, d);
    printf("%-16s %11s %14s %10s %5s %8s\n", "layer", "parameters", "multiply-adds",
           "sequential", "path", "memory");
    for (int i = 0; i < N_LAYERS; i++)
        printf("%-16s %11.0f %14.0f %10.0f %5.0f %8.0f\n", cost[i].name, cost[i].params,
               cost[i].macs, cost[i].sequential, cost[i].path, cost[i].memory);
    report_value(r, "cost_sa_params", "%.0f", cost[0].params);
    report_value(r, "cost_sa_macs", "%.0f", cost[0].macs);
    report_value(r, "cost_sa_seq", "%.0f", cost[0].sequential);
    report_value(r, "cost_rnn_macs", "%.0f", cost[1].macs);
    report_value(r, "cost_rnn_seq", "%.0f", cost[1].sequential);
    report_value(r, "cost_cnn_params", "%.0f", cost[2].params);
    report_value(r, "cost_cnn_path", "%.0f", cost[2].path);
    report_value(r, "cost_fc_params", "%.0f", cost[3].params);
    report_value(r, "cost_sa_memory", "%.0f", cost[0].memory);
    report_value(r, "cost_rnn_memory", "%.0f", cost[1].memory);
    report_value(r, "cost_n", "%.0f", n);
    report_value(r, "cost_d", "%.0f", d);
}

// ---------------------------------------------------------------------------
// A random layer: Xavier-initialised W_Q, W_K, W_V of size d x d, and random
// N(0, 1) token vectors. Not trained: the pattern is the seed's.

static void section_heatmap(report_t *r, random_t *rd, rng_t *rng) {
    report_section(r, "token heatmap");
    int d = rd->d;
    float *x = xfloats(PROG, (size_t)N_TOK * d), *q = xfloats(PROG, (size_t)N_TOK * d);
    float *k = xfloats(PROG, (size_t)N_TOK * d), *v = xfloats(PROG, (size_t)N_TOK * d);
    float *o = xfloats(PROG, (size_t)N_TOK * d);
    rng_fill_normal(rng, x, N_TOK * d, 0.0f, 1.0f);
    self_attn_init(&rd->layer, rng);
    self_attn_forward(&rd->layer, x, NULL, q, k, v, rd->w_tok, o, N_TOK);
    printf("random token vectors (d = %d), Xavier W_Q, W_K, W_V, seed %llu\n", d,
           (unsigned long long)rd->seed);
    report_print_matrix(rd->w_tok, N_TOK, N_TOK, 9, 4, TOKENS, TOKENS);
    double sum_err = attn_row_sum_error(rd->w_tok, N_TOK, N_TOK);
    report_check(r, "largest |row sum - 1|", sum_err, 1e-6);
    int best = argmax(rd->w_tok, N_TOK * N_TOK);   // strongest cell
    report_text(r, "heat_top_q", TOKENS[best / N_TOK]);
    report_text(r, "heat_top_k", TOKENS[best % N_TOK]);
    report_value(r, "heat_top_w", "%.4f", rd->w_tok[best]);
    report_value(r, "heat_d", "%.0f", d);
    report_value(r, "seed", "%.0f", (double)rd->seed);
    FILE *f = report_data(r, "heatmap.dat");
    report_write_matrix(f, rd->w_tok, N_TOK, N_TOK, TOKENS, TOKENS);
    report_data_close(r, f);
    free(x);
    free(q);
    free(k);
    free(v);
    free(o);
}

// ---------------------------------------------------------------------------
// Permutation equivariance

// The worked example read backwards: prints both outputs side by side and
// returns the largest difference once the rows are put back in order.
static double reversed_example(const example_t *ex) {
    const int rev[N_EX] = {2, 1, 0};   // new row i is old row rev[i]
    float xr[N_EX * D_EX], qr[N_EX * DK_EX], kr[N_EX * DK_EX], vr[N_EX * DV_EX];
    float wr[N_EX * N_EX], orr[N_EX * DV_EX];
    for (int i = 0; i < N_EX; i++)
        memcpy(xr + i * D_EX, X_EX + rev[i] * D_EX, sizeof(float) * D_EX);
    self_attn_forward(&ex->p, xr, NULL, qr, kr, vr, wr, orr, N_EX);
    printf("%-8s %19s  %19s\n", "input:", "cat hungry meows", "meows hungry cat");
    printf("%-8s %9s %9s  %9s %9s\n", "output", "d1", "d2", "d1", "d2");
    double worst = 0.0;
    for (int i = 0; i < N_EX; i++) {
        const float *mine = ex->out + i * DV_EX, *back = orr + rev[i] * DV_EX;
        printf("%-8s %9.4f %9.4f  %9.4f %9.4f\n", WORDS[i], mine[0], mine[1], back[0],
               back[1]);
        worst = fmax(worst, mat_max_abs_diff(mine, back, DV_EX));
    }
    return worst;
}

// perm (n,) <- a random permutation of 0..n-1 (Fisher-Yates).
static void shuffle(int *perm, int n, rng_t *rng) {
    for (int i = 0; i < n; i++) perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rng_uniform(rng) * (float)(i + 1));
        if (j > i) j = i;
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

// A random sequence and a shuffled copy through the random layer: the largest
// differences of outputs and weights once the shuffle is undone.
static void shuffled_sequence(random_t *rd, const int *perm, double *worst_out,
                              double *worst_w, double *mean_abs) {
    int n = rd->n, d = rd->d;
    size_t nd = (size_t)n * d;
    float *xp = xfloats(PROG, nd), *q = xfloats(PROG, nd), *k = xfloats(PROG, nd);
    float *v = xfloats(PROG, nd), *o = xfloats(PROG, nd), *op = xfloats(PROG, nd);
    float *wp = xfloats(PROG, (size_t)n * n);
    const float *x = rd->x, *w = rd->w;
    // snippet: permutation_check
    // x_p: row i of the shuffled input is row perm[i] of x.
    for (int i = 0; i < n; i++)
        memcpy(xp + i * d, x + perm[i] * d, sizeof(float) * (size_t)d);
    self_attn_forward(&rd->layer, x, NULL, q, k, v, rd->w, o, n);
    self_attn_forward(&rd->layer, xp, NULL, q, k, v, wp, op, n);
    // Equivariance: out(x_p)[i] == out(x)[perm[i]] and
    //               weights(x_p)[i][j] == weights(x)[perm[i]][perm[j]].
    *worst_out = *worst_w = 0.0;
    for (int i = 0; i < n; i++) {
        *worst_out = fmax(*worst_out, mat_max_abs_diff(op + i * d, o + perm[i] * d, d));
        for (int j = 0; j < n; j++)
            *worst_w = fmax(*worst_w, fabs(wp[i * n + j] - w[perm[i] * n + perm[j]]));
    }
    // end snippet
    *mean_abs = 0.0;
    for (size_t i = 0; i < nd; i++) *mean_abs += fabs(o[i]) / (double)nd;
    free(xp);
    free(q);
    free(k);
    free(v);
    free(o);
    free(op);
    free(wp);
}

static void section_permutation(report_t *r, const example_t *ex, random_t *rd,
                                rng_t *rng) {
    report_section(r, "permutation");
    double worst_ex = reversed_example(ex);
    report_check(r, "largest difference", worst_ex, 1e-6);
    printf("\n");

    int n = rd->n, d = rd->d;
    int *perm = xmalloc(PROG, sizeof(int) * (size_t)n);
    rng_fill_normal(rng, rd->x, n * d, 0.0f, 1.0f);
    shuffle(perm, n, rng);
    double worst_out, worst_w, mean_abs;
    shuffled_sequence(rd, perm, &worst_out, &worst_w, &mean_abs);
    printf("random sequence: n = %d, d = %d\nshuffled order:", n, d);
    for (int i = 0; i < n && i < 8; i++) printf(" %d", perm[i]);
    printf("%s\n", n > 8 ? " ..." : "");
    report_check(r, "largest |out(shuffled)[i] - out(x)[perm[i]]|", worst_out, 1e-6);
    report_check(r, "largest |w(shuffled)[i][j] - w(x)[perm[i]][perm[j]]|", worst_w,
                 1e-6);
    printf("for scale: mean |out| = %.4f\n", mean_abs);
    report_value(r, "perm_ex_diff", "%.1e", worst_ex);
    report_value(r, "perm_out_diff", "%.1e", worst_out);
    report_value(r, "perm_w_diff", "%.1e", worst_w);
    report_value(r, "perm_mean_abs", "%.4f", mean_abs);
    report_value(r, "perm_n", "%.0f", n);
    report_value(r, "perm_d", "%.0f", d);
    free(perm);
}

// ---------------------------------------------------------------------------
// Four kinds of pattern

static void section_patterns(report_t *r, const example_t *ex, const random_t *rd,
                             rng_t *rng) {
    report_section(r, "patterns");
    int n = rd->n, d = rd->d;
    const pattern_kind_t kinds[4] = {PATTERN_DIAGONAL, PATTERN_LOCAL, PATTERN_GLOBAL,
                                     PATTERN_SPARSE};
    const char *quoted[4] = {"diag", "diag locality", "ratio", "locality max sparsity"};
    float *pat[4];
    for (int i = 0; i < 4; i++) {
        pat[i] = xfloats(PROG, (size_t)n * n);
        make_pattern(pat[i], n, kinds[i], rng);
    }
    float *w_simple = xfloats(PROG, (size_t)n * n);
    float *o_simple = xfloats(PROG, (size_t)n * d);
    self_attn_simple(rd->x, NULL, o_simple, w_simple, n, d);

    printf("%-22s %4s %6s %6s %6s %6s %6s %6s  %s\n", "matrix", "n", "local", "diag",
           "sparse", "H", "H/lnn", "max", "class");
    for (int i = 0; i < 4; i++) {
        char name[32], key[32];
        snprintf(name, sizeof name, "made %s", pattern_name(kinds[i]));
        snprintf(key, sizeof key, "made_%s", pattern_name(kinds[i]));
        pattern_row(r, name, key, pat[i], n, quoted[i]);
    }
    pattern_row(r, "example, no weights", "ex_simple", ex->w_simple, N_EX,
                "class diag ratio");
    pattern_row(r, "example, W_Q W_K W_V", "ex_proj", ex->w, N_EX, "class locality");
    pattern_row(r, "I love machine ...", "tokens", rd->w_tok, N_TOK, "class");
    pattern_row(r, "random x, no weights", "rand_simple", w_simple, n, "class diag");
    pattern_row(r, "random x, Xavier W", "rand_proj", rd->w, n, "class ratio");

    for (int i = 0; i < 4; i++) {
        char file[64];
        snprintf(file, sizeof file, "pattern_%s.dat", pattern_name(kinds[i]));
        FILE *f = report_data(r, file);
        report_write_matrix(f, pat[i], n, n, NULL, NULL);
        report_data_close(r, f);
        free(pat[i]);
    }
    report_value(r, "pat_n", "%.0f", n);
    report_value(r, "pat_ln_n", "%.3f", log((double)n));
    report_value(r, "pat_small", "%.4f", PATTERN_SMALL / n);
    free(w_simple);
    free(o_simple);
}

// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// training W_Q and W_K: attend to the previous token

// Each token is TR_TOK random numbers (new in every sequence) followed by a
// one-hot code of its position: the only thing that says which token is the
// previous one.
enum { TR_N = 8, TR_TOK = 8, TR_D = TR_TOK + TR_N, TR_K = 8 };
enum { TR_STEPS = 300, TR_BATCH = 8, TR_EVERY = 25 };
static const float TR_LR = 0.5f;

static void training_sequence(float *x, rng_t *rng) {
    for (int i = 0; i < TR_N; i++) {
        rng_fill_normal(rng, x + i * TR_D, TR_TOK, 0.0f, 1.0f);
        for (int p = 0; p < TR_N; p++) x[i * TR_D + TR_TOK + p] = p == i ? 1.0f : 0.0f;
    }
}

// The mean weight each token with a previous one puts on it.
static double weight_on_previous(const float *a) {
    double sum = 0.0;
    for (int i = 1; i < TR_N; i++) sum += a[i * TR_N + i - 1];
    return sum / (TR_N - 1);
}

// Largest |backward - finite difference| / (1e-3 + |finite difference|) over
// every entry of both gradients, at weights w_q, w_k, on sequence x.
static double gradient_check(float *w_q, float *w_k, const float *x, const int *t) {
    float q[TR_N * TR_K], kk[TR_N * TR_K], a[TR_N * TR_N];
    float g[2][TR_D * TR_K] = {{0}}, scratch[TR_N * TR_N + 2 * TR_N * TR_K];
    qk_forward(x, w_q, w_k, t, TR_N, TR_D, TR_K, q, kk, a);
    const qk_saved_t fw = {q, kk, a};
    qk_backward(x, t, &fw, TR_N, TR_D, TR_K, g[0], g[1], scratch);
    double worst = 0.0;
    for (int which = 0; which < 2; which++) {
        float *w = which ? w_k : w_q;
        for (int i = 0; i < TR_D * TR_K; i++) {
            const float eps = 1e-2f, keep = w[i];
            w[i] = keep + eps;
            double up = qk_forward(x, w_q, w_k, t, TR_N, TR_D, TR_K, q, kk, a);
            w[i] = keep - eps;
            double down = qk_forward(x, w_q, w_k, t, TR_N, TR_D, TR_K, q, kk, a);
            w[i] = keep;
            double fd = (up - down) / (2.0 * eps);
            double rel = fabs(g[which][i] - fd) / (1e-3 + fabs(fd));
            if (rel > worst) worst = rel;
        }
    }
    return worst;
}

// snippet: train_step
// One step of gradient descent on a batch of fresh sequences; returns the
// batch's mean loss.
static double train_step(float *w_q, float *w_k, const int *t, rng_t *rng) {
    float x[TR_N * TR_D], q[TR_N * TR_K], kk[TR_N * TR_K], a[TR_N * TR_N];
    float dw_q[TR_D * TR_K] = {0}, dw_k[TR_D * TR_K] = {0};   // zeroed once per step
    float scratch[TR_N * TR_N + 2 * TR_N * TR_K];
    const qk_saved_t fw = {q, kk, a};                // what the forward pass made
    double loss = 0.0;
    for (int b = 0; b < TR_BATCH; b++) {
        training_sequence(x, rng);
        loss += qk_forward(x, w_q, w_k, t, TR_N, TR_D, TR_K, q, kk, a);
        qk_backward(x, t, &fw, TR_N, TR_D, TR_K, dw_q, dw_k, scratch);
    }
    for (int i = 0; i < TR_D * TR_K; i++) {        // w <- w - lr * mean gradient
        w_q[i] -= TR_LR * dw_q[i] / TR_BATCH;
        w_k[i] -= TR_LR * dw_k[i] / TR_BATCH;
    }
    return loss / TR_BATCH;
}
// end snippet

// The attention weights of (w_q, w_k) on x, printed and written to name.
static void show_trained(report_t *r, const char *name, const float *w_q,
                         const float *w_k, const float *x, const int *t, float *a) {
    float q[TR_N * TR_K], kk[TR_N * TR_K];
    qk_forward(x, w_q, w_k, t, TR_N, TR_D, TR_K, q, kk, a);
    FILE *f = report_data(r, name);
    report_write_matrix(f, a, TR_N, TR_N, NULL, NULL);
    report_data_close(r, f);
}

static void section_training(report_t *r, rng_t *rng) {
    float w_q[TR_D * TR_K], w_k[TR_D * TR_K], x_test[TR_N * TR_D];
    float before[TR_N * TR_N], after[TR_N * TR_N];
    int t[TR_N];
    for (int i = 0; i < TR_N; i++) t[i] = i - 1;   // the previous token; -1: none
    linear_init_xavier(rng, w_q, TR_D, TR_K);
    linear_init_xavier(rng, w_k, TR_D, TR_K);
    training_sequence(x_test, rng);                // one sequence training never sees

    report_section(r, "training");
    printf("task: every token attends to the previous one (the first is not scored)\n");
    printf("tokens: %d per sequence, each %d random numbers + a one-hot position "
           "(d = %d)\n", TR_N, TR_TOK, TR_D);
    printf("trained: W_Q, W_K (%d, %d); %d steps of %d sequences, learning rate %.1f\n",
           TR_D, TR_K, TR_STEPS, TR_BATCH, TR_LR);
    report_check(r, "backward vs finite differences, max rel. error",
                 gradient_check(w_q, w_k, x_test, t), 1e-2);
    show_trained(r, "training_before.dat", w_q, w_k, x_test, t, before);
    FILE *curve = report_data(r, "training_loss.dat");
    if (curve) fprintf(curve, "# step  mean loss of the step's batch\n");
    printf("\n step    loss\n");
    double first = 0.0, last = 0.0;
    for (int step = 0; step <= TR_STEPS; step++) {
        double loss = train_step(w_q, w_k, t, rng);
        if (step == 0) first = loss;
        last = loss;
        if (curve) fprintf(curve, "%d %.6f\n", step, loss);
        if (step % (4 * TR_EVERY) == 0 || step == TR_STEPS)
            printf("%5d  %6.4f\n", step, loss);
    }
    report_data_close(r, curve);
    show_trained(r, "training_after.dat", w_q, w_k, x_test, t, after);
    printf("\nweights on an unseen sequence after training (row = query):\n");
    report_print_matrix(after, TR_N, TR_N, 6, 2, NULL, NULL);
    double prev = weight_on_previous(after);
    printf("mean weight on the previous token: before %.3f, after %.3f\n",
           weight_on_previous(before), prev);
    report_check_true(r, "the trained head looks back (mean weight > 0.9)", prev > 0.9);
    report_value(r, "tr_steps", "%.0f", TR_STEPS);
    report_value(r, "tr_batch", "%.0f", TR_BATCH);
    report_value(r, "tr_lr", "%.1f", TR_LR);
    report_value(r, "tr_n", "%.0f", TR_N);
    report_value(r, "tr_log_n", "%.3f", log((double)TR_N));
    report_value(r, "tr_loss_start", "%.3f", first);
    report_value(r, "tr_loss_end", "%.3f", last);
    report_value(r, "tr_prev_weight", "%.3f", prev);
}

int main(int argc, char **argv) {
    long seq_len = 12, d_model = 16;
    const cli_opt_t opts[] = {
        {.name = "--seq-len", .meta = "N", .help = "length of the random sequences",
         .kind = CLI_INT, .ival = &seq_len, .min = 8, .max = 512},
        {.name = "--d-model", .meta = "N", .help = "width of the random token vectors",
         .kind = CLI_INT, .ival = &d_model, .min = 2, .max = 512},
    };
    cli_t cli = {.program = PROG,
                 .summary = "Chapter 3: self-attention, from no weights to W_Q W_K W_V",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 3};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);   // --help, bad options: exit
    if (rc >= 0) return rc;
    rng_t rng;
    rng_seed(&rng, cli.seed);
    example_t *ex = example_new();
    random_t rd = random_new((int)seq_len, (int)d_model, cli.seed);

    section_input(&r);
    section_simplified(&r, ex);
    section_qkv(&r, ex);
    section_scores(&r, ex);
    section_outputs(&r, ex);
    section_context(&r, ex);
    section_complexity(&r, rd.n, rd.d);
    section_heatmap(&r, &rd, &rng);
    section_permutation(&r, ex, &rd, &rng);
    section_patterns(&r, ex, &rd, &rng);
    section_training(&r, &rng);

    example_free(ex);
    random_free(&rd);
    return report_close(&r) == 0 ? 0 : 1;
}
