// ch01_intuition.c -- chapter 1: attention as "where to look".
//
// Hand-made word vectors show where a pronoun looks and how "cat" spreads its
// attention; a tiny recurrent net shows why one fixed-size summary forgets;
// a bookstore walks through query, keys, weights and values; four scoring
// functions meet one query; and Nadaraya-Watson kernel regression shows
// attention pooling on a 1-D toy data set.

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "attention/attn_stats.h"
#include "program/program.h"
#include "attention/kernel_regression.h"
#include "base/mat.h"
#include "program/report.h"
#include "base/rng.h"
#include "attention/scoring.h"
#include "attention/softmax.h"
#include "program/xalloc.h"

static const char *PROG = "ch01_intuition";

// Record val (n,) under the names key (n,), each printed with format fmt.
static void record(report_t *r, const char *fmt, const char *const *key,
                   const double *val, size_t n) {
    for (size_t i = 0; i < n; i++) report_value(r, key[i], fmt, val[i]);
}

// ---------------------------------------------------------------------------
// small helpers

// A row of '#' whose length is proportional to w in [0, 1].
static void print_bar(float w, int width) {
    int n = (int)lrintf(w * (float)width);
    for (int i = 0; i < n; i++) putchar('#');
}

// Mean squared difference of two length-n vectors.
static double mse(const float *a, const float *b, int n) {
    return mat_sq_dist(a, b, (size_t)n) / n;
}

// A ratio like 4.0e7 in words for the prose: "40 million".
static const char *one_part_in(char *buf, int size, double ratio) {
    const char *unit[] = {"", " thousand", " million", " billion", " trillion"};
    int u = 0;
    while (ratio >= 1000.0 && u < 4) {
        ratio /= 1000.0;
        u++;
    }
    snprintf(buf, (size_t)size, "%.0f%s", ratio, unit[u]);
    return buf;
}

// ---------------------------------------------------------------------------
// query -> match keys -> weights -> weighted sum of values

// snippet: attend
// q (d_k,), keys (m, d_k), values (m, d_v)
//   -> scores (m,), weights (m,), out (d_v,)
static void attend(const float *q, const float *keys, const float *values,
                   float *scores, float *weights, float *out,
                   int m, int d_k, int d_v) {
    for (int j = 0; j < m; j++)               // 1. match the query with every key
        scores[j] = score_scaled_dot(q, keys + j * d_k, d_k);
    memcpy(weights, scores, sizeof(float) * (size_t)m);
    softmax(weights, m);                      // 2. scores -> weights that sum to 1
    attention_combine(weights, values, out, 1, m, d_v);   // 3. weighted sum
}
// end snippet

// ---------------------------------------------------------------------------
// 1. where "it" looks

// Hand-made word vectors. Each of the four numbers says how much a word is
// about: a living thing, a place, an action, grammar.
enum { D_WORD = 4 };

static void section_it(report_t *r) {
    enum { M = 11 };
    const char *tok[M] = {"The", "animal", "didn't", "cross", "the", "street",
                          "because", "it", "was", "too", "tired"};
    //                      living place action grammar
    float keys[M * D_WORD] = {0.0f, 0.0f, 0.0f, 1.0f,     // The
                              1.0f, 0.0f, 0.1f, 0.0f,     // animal
                              0.0f, 0.0f, 0.5f, 0.6f,     // didn't
                              0.1f, 0.2f, 1.0f, 0.0f,     // cross
                              0.0f, 0.0f, 0.0f, 1.0f,     // the
                              0.0f, 1.0f, 0.0f, 0.0f,     // street
                              0.0f, 0.0f, 0.0f, 1.0f,     // because
                              0.3f, 0.3f, 0.0f, 0.5f,     // it
                              0.0f, 0.0f, 0.2f, 0.8f,     // was
                              0.0f, 0.0f, 0.0f, 0.9f,     // too
                              0.5f, 0.0f, 0.2f, 0.1f};    // tired
    const float wide[D_WORD] = {0.0f, 0.5f, 0.0f, 0.1f};  // "wide" describes places
    // The query of "it": what "it" is looking for. After "too tired" it looks
    // for something alive; after "too wide" for a place.
    const float q_tired[D_WORD] = {5.0f, 0.0f, 0.0f, -2.0f};
    const float q_wide[D_WORD] = {0.0f, 5.0f, 0.0f, -2.0f};

    float s[M], w_tired[M], w_wide[M], out[D_WORD];
    attend(q_tired, keys, keys, s, w_tired, out, M, D_WORD, D_WORD);
    memcpy(keys + (M - 1) * D_WORD, wide, sizeof wide);
    attend(q_wide, keys, keys, s, w_wide, out, M, D_WORD, D_WORD);

    report_section(r, "where it looks");
    printf("features: living, place, action, grammar\n");
    printf("query of \"it\" after \"tired\": %4.1f %4.1f %4.1f %4.1f\n", q_tired[0],
           q_tired[1], q_tired[2], q_tired[3]);
    printf("query of \"it\" after \"wide\":  %4.1f %4.1f %4.1f %4.1f\n\n", q_wide[0],
           q_wide[1], q_wide[2], q_wide[3]);
    printf("weights of the query \"it\" over the sentence\n\n");
    printf("%-8s %7s  %-18s %5s\n", "word", "tired", "", "wide");
    FILE *f = report_data(r, "it_weights.dat");
    for (int j = 0; j < M; j++) {
        const char *word = (j == M - 1) ? "tired/wide" : tok[j];
        printf("%-10s %5.3f  ", word, w_tired[j]);
        print_bar(w_tired[j], 30);
        printf("%*s", 18 - (int)lrintf(w_tired[j] * 30.0f), "");
        printf("%5.3f  ", w_wide[j]);
        print_bar(w_wide[j], 30);
        printf("\n");
        if (f) fprintf(f, "%d \"%s\" %.6f %.6f\n", j, word, w_tired[j], w_wide[j]);
    }
    report_data_close(r, f);
    report_value(r, "it_animal_tired", "%.2f", w_tired[1]);
    report_value(r, "it_street_tired", "%.2f", w_tired[5]);
    report_value(r, "it_animal_wide", "%.2f", w_wide[1]);
    report_value(r, "it_street_wide", "%.2f", w_wide[5]);
}

// ---------------------------------------------------------------------------
// 2. one small note passed along the chain

enum { NOTE_D = 8, WORD_D = 4, NOTE_T = 64, NOTE_TRIALS = 20 };

// snippet: note_step
// note (NOTE_D,), x (WORD_D,), w (NOTE_D, NOTE_D), u (NOTE_D, WORD_D)
//   -> note = tanh(W note + U x): the new note replaces the old one.
static void note_step(float *note, const float *x, const float *w, const float *u) {
    float next[NOTE_D];
    for (int i = 0; i < NOTE_D; i++)
        next[i] = (float)tanh(mat_dot(w + i * NOTE_D, note, NOTE_D) +
                              mat_dot(u + i * WORD_D, x, WORD_D));
    memcpy(note, next, sizeof next);
}
// end snippet

// How the second sentence of a pair differs from the first.
typedef enum { FIRST_DIFFERS, FIRST_NUDGED, ALL_DIFFER } note_pair_t;
static const float NOTE_NUDGE = 1e-4f;   // FIRST_NUDGED: word 1 plus noise this size

// Mean distance between the notes of two sentences after every word, for
// recurrent weights of gain `gain` (W has entries N(0, gain^2 / NOTE_D)).
// gap[t] is the distance after t + 1 words.
static void note_gaps(uint64_t seed, float gain, note_pair_t pair, double gap[NOTE_T]) {
    rng_t rng;
    rng_seed(&rng, seed + 1);
    float w[NOTE_D * NOTE_D], u[NOTE_D * WORD_D];
    rng_fill_normal(&rng, w, NOTE_D * NOTE_D, 0.0f, gain / sqrtf((float)NOTE_D));
    rng_fill_normal(&rng, u, NOTE_D * WORD_D, 0.0f, 0.5f / sqrtf((float)WORD_D));
    for (int t = 0; t < NOTE_T; t++) gap[t] = 0.0;
    for (int trial = 0; trial < NOTE_TRIALS; trial++) {
        float xs[NOTE_T * WORD_D], ys[NOTE_T * WORD_D];
        rng_fill_normal(&rng, xs, NOTE_T * WORD_D, 0.0f, 1.0f);
        rng_fill_normal(&rng, ys, NOTE_T * WORD_D, 0.0f, 1.0f);
        if (pair != ALL_DIFFER)                   // the same sentence from word 2 on
            memcpy(ys + WORD_D, xs + WORD_D, sizeof(float) * (NOTE_T - 1) * WORD_D);
        if (pair == FIRST_NUDGED)
            for (int c = 0; c < WORD_D; c++) ys[c] = xs[c] + NOTE_NUDGE * ys[c];
        float a[NOTE_D] = {0}, b[NOTE_D] = {0};
        for (int t = 0; t < NOTE_T; t++) {
            note_step(a, xs + t * WORD_D, w, u);
            note_step(b, ys + t * WORD_D, w, u);
            gap[t] += sqrt(mat_sq_dist(a, b, NOTE_D)) / NOTE_TRIALS;
        }
    }
}

static const float NOTE_CHAOS_GAIN = 5.0f;

static void section_note(report_t *r, uint64_t seed) {
    // Two sentences that differ only in their first word: how different are
    // the notes after t words? gap[0], after word 1, is also how different the
    // first states are, which an attention model keeps and can read any time.
    double gap[NOTE_T], chaos[NOTE_T], nudged[NOTE_T], unrelated[NOTE_T];
    note_gaps(seed, 1.0f, FIRST_DIFFERS, gap);
    note_gaps(seed, NOTE_CHAOS_GAIN, FIRST_DIFFERS, chaos);
    note_gaps(seed, NOTE_CHAOS_GAIN, FIRST_NUDGED, nudged);
    note_gaps(seed, NOTE_CHAOS_GAIN, ALL_DIFFER, unrelated);
    const double gap_first = gap[0];

    report_section(r, "one small note");
    printf("note size %d numbers; two sentences differ only in word 1\n", NOTE_D);
    printf("(mean over %d random sentence pairs)\n\n", NOTE_TRIALS);
    printf("%6s %14s %14s %12s\n", "words", "numbers read", "note gap", "share left");
    const int show[] = {1, 2, 4, 8, 16, 32, 64};
    for (size_t i = 0; i < sizeof show / sizeof show[0]; i++) {
        int t = show[i];
        printf("%6d %14d %14.2e %12.2e\n", t, t * WORD_D, gap[t - 1],
               gap[t - 1] / gap_first);
    }
    printf("\nkept first state (what attention can read): gap %.2e at any length\n",
           gap_first);
    printf("\nthe same chain with recurrent gain %.0f instead of 1:\n",
           NOTE_CHAOS_GAIN);
    printf("%6s %14s %14s %14s\n", "words", "word 1 differs", "word 1 nudged",
           "all differ");
    for (size_t i = 0; i < sizeof show / sizeof show[0]; i++) {
        int t = show[i];
        printf("%6d %14.2e %14.2e %14.2e\n", t, chaos[t - 1], nudged[t - 1],
               unrelated[t - 1]);
    }
    printf("(note gaps; nudged: word 1 plus noise of size %.0e)\n", NOTE_NUDGE);
    FILE *f = report_data(r, "note_gap.dat");
    if (f) {
        fprintf(f, "# words  share left (gain 1)  kept first state\n");
        for (int t = 0; t < NOTE_T; t++)
            fprintf(f, "%d %.6e %.6e\n", t + 1, gap[t] / gap_first, 1.0);
    }
    report_data_close(r, f);
    char buf[64];
    report_value(r, "note_d", "%.0f", NOTE_D);
    report_value(r, "note_numbers_64", "%.0f", NOTE_T * WORD_D);
    report_value(r, "note_share_8", "%.2f", gap[7] / gap_first);
    report_value(r, "note_share_16", "%.3f", gap[15] / gap_first);
    report_text(r, "note_share_64", one_part_in(buf, sizeof buf, gap_first / gap[63]));
    report_value(r, "note_chaos_gain", "%.0f", NOTE_CHAOS_GAIN);
    report_value(r, "note_chaos_64", "%.2f", chaos[63]);
    report_value(r, "note_unrelated_64", "%.2f", unrelated[63]);
    report_value(r, "note_nudged_1", "%.1e", nudged[0]);
    report_value(r, "note_nudged_64", "%.2f", nudged[63]);
}

// ---------------------------------------------------------------------------
// 3. the bookstore: query, keys, values

static void section_bookstore(report_t *r) {
    enum { M = 4, DK = 4, DV = 3 };
    const char *title[M] = {"Learning Python", "The C Programming Language",
                            "Italian Cooking", "A History of Computing"};
    // Keys: what a title promises, over {python, programming, cooking, history}.
    const float keys[M * DK] = {1.0f, 1.0f, 0.0f, 0.0f,
                                0.0f, 1.0f, 0.0f, 0.0f,
                                0.0f, 0.0f, 1.0f, 0.0f,
                                0.0f, 0.5f, 0.0f, 1.0f};
    // Values: what is inside, over {code, recipes, stories}.
    const float values[M * DV] = {0.9f, 0.0f, 0.1f,
                                  0.8f, 0.0f, 0.2f,
                                  0.0f, 1.0f, 0.0f,
                                  0.1f, 0.0f, 0.9f};
    // The query: "a book on Python programming".
    const float q[DK] = {2.0f, 2.0f, 0.0f, 0.0f};
    float s[M], w[M], out[DV];
    attend(q, keys, values, s, w, out, M, DK, DV);

    report_section(r, "bookstore");
    printf("query: python 2, programming 2, cooking 0, history 0\n");
    printf("score = (query . key) / sqrt(d_k) with d_k = %d: divide by %.0f\n\n", DK,
           sqrt((double)DK));
    printf("%-26s %-15s %7s %7s   %s\n", "title", "key py pr co hi", "score", "weight",
           "value: code rec sto");
    for (int j = 0; j < M; j++)
        printf("%-26s %3.1f %3.1f %3.1f %3.1f %7.3f %7.3f   %11.1f %3.1f %3.1f\n",
               title[j], keys[j * DK], keys[j * DK + 1], keys[j * DK + 2],
               keys[j * DK + 3], s[j], w[j], values[j * DV], values[j * DV + 1],
               values[j * DV + 2]);
    printf("%-26s %15s %7s %7.3f\n", "sum", "", "", w[0] + w[1] + w[2] + w[3]);
    printf("\noutput = sum of weight x value:\n");
    printf("  code %.3f, recipes %.3f, stories %.3f\n", out[0], out[1], out[2]);
    report_value(r, "book_dot_python", "%.1f", mat_dot(q, keys, DK));
    report_value(r, "book_sqrt_dk", "%.0f", sqrt((double)DK));
    report_value(r, "book_score_python", "%.1f", s[0]);
    static const char *const KEY[] = {"book_w_python", "book_w_c", "book_w_cooking",
                                      "book_out_code", "book_out_recipes"};
    const double val[] = {w[0], w[1], w[2], out[0], out[1]};
    record(r, "%.3f", KEY, val, sizeof val / sizeof val[0]);
}

// ---------------------------------------------------------------------------
// 4. the cat: soft and hard attention

static void section_cat(report_t *r) {
    enum { M = 6 };
    const char *tok[M] = {"The", "cat", "sat", "on", "the", "mat"};
    //                       creature action place grammar
    const float x[M * D_WORD] = {0.0f, 0.0f, 0.0f, 2.0f,     // The
                                 2.0f, 0.4f, 0.4f, 0.0f,     // cat
                                 0.8f, 2.0f, 0.4f, 0.0f,     // sat
                                 0.0f, 0.4f, 1.0f, 1.6f,     // on
                                 0.0f, 0.0f, 0.0f, 2.0f,     // the
                                 0.4f, 0.0f, 2.0f, 0.2f};    // mat
    const float *q = x + 1 * D_WORD;   // "cat" asks with its own vector
    float s[M], soft[M], hard[M], out_soft[D_WORD], out_hard[D_WORD];
    attend(q, x, x, s, soft, out_soft, M, D_WORD, D_WORD);
    score_hard(s, hard, M);
    attention_combine(hard, x, out_hard, 1, M, D_WORD);

    report_section(r, "the cat");
    printf("query: \"cat\"; keys and values: the words of the sentence\n\n");
    printf("%-5s %7s %7s %5s\n", "word", "score", "soft", "hard");
    FILE *f = report_data(r, "cat_weights.dat");
    for (int j = 0; j < M; j++) {
        printf("%-5s %7.3f %7.3f %5.0f  ", tok[j], s[j], soft[j], hard[j]);
        print_bar(soft[j], 40);
        printf("\n");
        if (f) fprintf(f, "%d \"%s\" %.6f %.0f\n", j, tok[j], soft[j], hard[j]);
    }
    report_data_close(r, f);
    printf("\n%-22s %s\n", "", "creature  action   place grammar");
    printf("%-22s %8.3f %7.3f %7.3f %7.3f\n", "\"cat\" itself", q[0], q[1], q[2],
           q[3]);
    printf("%-22s %8.3f %7.3f %7.3f %7.3f\n", "soft output (average)", out_soft[0],
           out_soft[1], out_soft[2], out_soft[3]);
    printf("%-22s %8.3f %7.3f %7.3f %7.3f\n", "hard output (one word)", out_hard[0],
           out_hard[1], out_hard[2], out_hard[3]);
    static const char *const KEY[] = {"cat_w_cat",      "cat_w_sat",    "cat_w_mat",
                                      "cat_w_the",      "cat_out_action",
                                      "cat_out_place"};
    const double val[] = {soft[1], soft[2], soft[5], soft[0], out_soft[1], out_soft[2]};
    record(r, "%.2f", KEY, val, sizeof val / sizeof val[0]);
}

// ---------------------------------------------------------------------------
// 5. four scoring functions, one query

static void section_scoring(report_t *r, uint64_t seed) {
    enum { M = 5, D = 4, DH = 3 };
    const char *name[M] = {"k1 like q", "k2 = 3 k1", "k3 sideways", "k4 opposite",
                           "k5 short"};
    const float q[D] = {1.0f, 1.0f, 0.0f, 0.0f};
    const float keys[M * D] = {1.0f, 0.5f, 0.0f, 0.0f,
                               3.0f, 1.5f, 0.0f, 0.0f,
                               0.0f, 0.0f, 1.0f, 1.0f,
                               -1.0f, -1.0f, 0.0f, 0.0f,
                               0.1f, 0.1f, 0.0f, 0.0f};
    rng_t rng;
    rng_seed(&rng, seed + 2);
    float w_q[DH * D], w_k[DH * D], v[DH];
    rng_fill_normal(&rng, w_q, DH * D, 0.0f, 0.5f);
    rng_fill_normal(&rng, w_k, DH * D, 0.0f, 0.5f);
    rng_fill_normal(&rng, v, DH, 0.0f, 1.0f);
    additive_params_t add = {w_q, w_k, v, D, D, DH};

    float sc[4][M];
    for (int j = 0; j < M; j++) {
        const float *k = keys + j * D;
        sc[0][j] = score_dot(q, k, D);
        sc[1][j] = score_scaled_dot(q, k, D);
        sc[2][j] = score_cosine(q, k, D);
        sc[3][j] = score_additive(&add, q, k);
    }
    report_section(r, "scoring functions");
    printf("query q = (1, 1, 0, 0); additive: d_h = %d, random W_q, W_k, v\n\n", DH);
    printf("%-12s %-20s %8s %8s %8s %8s\n", "key", "   components", "dot", "scaled",
           "cosine", "additive");
    for (int j = 0; j < M; j++) {
        const float *k = keys + j * D;
        printf("%-12s %5.1f%5.1f%5.1f%5.1f %8.3f %8.3f %8.3f %8.3f\n", name[j], k[0],
               k[1], k[2], k[3], sc[0][j], sc[1][j], sc[2][j], sc[3][j]);
    }
    printf("\nsoftmax weights over the five keys:\n%-12s", "");
    for (int j = 0; j < M; j++) printf(" %7.2s", name[j]);
    printf("\n");
    const char *fn[4] = {"dot", "scaled", "cosine", "additive"};
    for (int i = 0; i < 4; i++) {
        float w[M];
        memcpy(w, sc[i], sizeof w);
        softmax(w, M);
        printf("%-12s", fn[i]);
        for (int j = 0; j < M; j++) printf(" %7.3f", w[j]);
        printf("\n");
        if (i == 0) report_value(r, "score_w_dot_k2", "%.2f", w[1]);
        if (i == 2) report_value(r, "score_w_cos_k2", "%.2f", w[1]);
    }
    report_value(r, "score_dot_k1", "%.2f", sc[0][0]);
    report_value(r, "score_dot_k2", "%.2f", sc[0][1]);
    report_value(r, "score_cos_k1", "%.3f", sc[2][0]);
    report_value(r, "score_cos_k5", "%.3f", sc[2][4]);
    report_value(r, "score_dot_k5", "%.2f", sc[0][4]);
    report_value(r, "score_add_k1", "%.3f", sc[3][0]);
    report_value(r, "score_add_k2", "%.3f", sc[3][1]);
    int best = 0;
    for (int j = 1; j < M; j++)
        if (sc[3][j] > sc[3][best]) best = j;
    report_text(r, "score_add_best", name[best]);
    double vmax = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
    report_value(r, "score_add_bound", "%.3f", vmax);
}

// ---------------------------------------------------------------------------
// 6. attention pooling as kernel regression

// snippet: toy_data
// The function to learn and a noisy sample of it at sorted random x in [0, 5).
static float truth(float x) { return 2.0f * sinf(x) + powf(x, 0.8f); }

static void make_toy_data(rng_t *rng, float *x, float *y, int n, float noise) {
    rng_fill_uniform(rng, x, n, 0.0f, 5.0f);
    for (int i = 1; i < n; i++)             // insertion sort: keys in x order
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
            float t = x[j]; x[j] = x[j - 1]; x[j - 1] = t;
        }
    for (int i = 0; i < n; i++) y[i] = truth(x[i]) + noise * rng_normal(rng);
}
// end snippet

enum { NQ = 101 };   // queries on a grid 0, 0.05, ..., 5

// Mean over queries of how many training points it takes, largest weight
// first, to collect `mass` (e.g. 0.9) of a query's weight.
static double mean_top_mass(const float *w, int n_q, int n_t, float mass) {
    float *row = xfloats(PROG, (size_t)n_t);
    double total = 0.0;
    for (int i = 0; i < n_q; i++) {
        memcpy(row, w + i * n_t, sizeof(float) * (size_t)n_t);
        double acc = 0.0;
        int k = 0;
        while (acc < mass && k < n_t) {     // take the largest remaining weight
            int best = 0;
            for (int j = 1; j < n_t; j++)
                if (row[j] > row[best]) best = j;
            acc += row[best];
            row[best] = -1.0f;
            k++;
        }
        total += k;
    }
    free(row);
    return total / n_q;
}

typedef struct {
    int n_t;
    float h, noise;
    float *xt, *yt;       // (n_t,) training data, sorted by x
    float xq[NQ], yq[NQ]; // query grid and the truth there
    float *w;             // (NQ, n_t) weights
    float *wt;            // (n_t, n_t) weights with the training x as queries
    float pred[NQ], *pred_t;
    double ymean;         // mean of yt
} toy_t;

// Fit at width h: returns the test MSE (vs truth on the grid); *train_mse is
// the MSE against the noisy training targets at the training inputs.
static double fit(toy_t *t, float h, double *train_mse, double *eff) {
    nw_weights(t->xq, NQ, t->xt, t->n_t, h, t->w);
    nw_predict(t->w, t->yt, t->pred, NQ, t->n_t);
    nw_weights(t->xt, t->n_t, t->xt, t->n_t, h, t->wt);
    nw_predict(t->wt, t->yt, t->pred_t, t->n_t, t->n_t);
    if (train_mse) *train_mse = mse(t->pred_t, t->yt, t->n_t);
    if (eff) *eff = exp(attn_mean_entropy(t->w, NQ, t->n_t));
    return mse(t->pred, t->yq, NQ);
}

static void write_pred(report_t *r, const toy_t *t, const char *name) {
    FILE *f = report_data(r, name);
    if (f)
        for (int i = 0; i < NQ; i++)
            fprintf(f, "%.4f %.6f %.6f\n", t->xq[i], t->yq[i], t->pred[i]);
    report_data_close(r, f);
}

static toy_t toy_new(int n_t, float h, uint64_t seed) {
    toy_t t = {.n_t = n_t, .h = h, .noise = 0.5f};
    t.xt = xfloats(PROG, (size_t)n_t);
    t.yt = xfloats(PROG, (size_t)n_t);
    t.w = xfloats(PROG, (size_t)NQ * n_t);
    t.wt = xfloats(PROG, (size_t)n_t * n_t);
    t.pred_t = xfloats(PROG, (size_t)n_t);
    rng_t rng;
    rng_seed(&rng, seed + 3);
    make_toy_data(&rng, t.xt, t.yt, n_t, t.noise);
    for (int i = 0; i < NQ; i++) {
        t.xq[i] = 5.0f * (float)i / (float)(NQ - 1);
        t.yq[i] = truth(t.xq[i]);
    }
    t.ymean = 0.0;
    for (int j = 0; j < n_t; j++) t.ymean += t.yt[j] / n_t;
    return t;
}

static void toy_free(toy_t *t) {
    free(t->xt);
    free(t->yt);
    free(t->w);
    free(t->wt);
    free(t->pred_t);
}

static void section_toy_data(report_t *r, const toy_t *t) {
    int n_t = t->n_t;
    report_section(r, "toy data");
    printf("y = 2 sin(x) + x^0.8 + noise, noise std %.2f, %d points\n\n", t->noise,
           n_t);
    printf("%4s %8s %8s %8s\n", "j", "x_j", "y_j", "truth");
    for (int j = 0; j < n_t; j += (n_t + 7) / 8)
        printf("%4d %8.3f %8.3f %8.3f\n", j, t->xt[j], t->yt[j], truth(t->xt[j]));
    printf("\nmean of all y_j: %.4f\n", t->ymean);
    FILE *f = report_data(r, "nw_train.dat");
    if (f)
        for (int j = 0; j < n_t; j++) fprintf(f, "%.6f %.6f\n", t->xt[j], t->yt[j]);
    report_data_close(r, f);
    report_value(r, "nw_n_train", "%.0f", n_t);
    report_value(r, "nw_n_query", "%.0f", NQ);
    report_value(r, "nw_noise", "%.1f", t->noise);
    report_value(r, "nw_ymean", "%.3f", t->ymean);
}

// top (3,) <- indices of the (up to) three largest entries of row (n,),
// largest first; returns how many.
static int top3(const float *row, int n, int top[3]) {
    int n_top = n < 3 ? n : 3;
    top[0] = top[1] = top[2] = -1;
    for (int s = 0; s < n_top; s++)
        for (int j = 0; j < n; j++) {
            if (j == top[0] || j == top[1]) continue;
            if (top[s] < 0 || row[j] > row[top[s]]) top[s] = j;
        }
    return n_top;
}

// The fit at the chosen width, and who each query listens to.
static void section_kernel(report_t *r, toy_t *t) {
    int n_t = t->n_t;
    double train_mse, eff;
    double test_mse = fit(t, t->h, &train_mse, &eff);
    write_pred(r, t, "nw_fit.dat");
    FILE *f = report_data(r, "nw_weights.dat");
    report_write_matrix(f, t->w, NQ, n_t, NULL, NULL);
    report_data_close(r, f);

    report_section(r, "kernel regression");
    printf("width h = %.2f\n\n", t->h);
    printf("%6s %8s %8s   %s\n", "query", "f(x)", "truth",
           "three largest weights (x_j)");
    const int picks[3] = {20, 50, 80};   // x = 1.0, 2.5, 4.0
    for (int p = 0; p < 3; p++) {
        int i = picks[p], top[3];
        const float *row = t->w + i * n_t;
        int n_top = top3(row, n_t, top);
        printf("%6.2f %8.3f %8.3f  ", t->xq[i], t->pred[i], t->yq[i]);
        for (int s = 0; s < n_top; s++)
            printf(" %.3f (%.2f)", row[top[s]], t->xt[top[s]]);
        printf("\n");
        if (p == 1) {
            report_value(r, "nw_q", "%.1f", t->xq[i]);
            report_value(r, "nw_q_pred", "%.3f", t->pred[i]);
            report_value(r, "nw_q_truth", "%.3f", t->yq[i]);
            report_value(r, "nw_q_top_w", "%.3f", row[top[0]]);
            report_value(r, "nw_q_top_x", "%.2f", t->xt[top[0]]);
        }
    }
    printf("\ntest MSE vs truth %.4f, train MSE %.4f, effective points %.1f\n",
           test_mse, train_mse, eff);
    report_value(r, "nw_h", "%.2f", t->h);
    report_value(r, "nw_pred_0", "%.2f", t->pred[0]);
    report_value(r, "nw_truth_0", "%.2f", t->yq[0]);
    report_value(r, "nw_test_mse", "%.4f", test_mse);
}

// Figure data: the fits and weights at four widths side by side.
static void write_panels(report_t *r, toy_t *t) {
    const float panel[4] = {0.03f, 0.3f, 1.0f, 3.0f};
    float *preds = xfloats(PROG, 4 * NQ);
    for (int k = 0; k < 4; k++) {
        char name[32];
        fit(t, panel[k], NULL, NULL);
        memcpy(preds + k * NQ, t->pred, sizeof(float) * NQ);
        snprintf(name, sizeof name, "nw_panel_%d", k + 1);
        report_value(r, name, "%g", panel[k]);
        snprintf(name, sizeof name, "nw_weights_%d.dat", k + 1);
        FILE *f = report_data(r, name);
        report_write_matrix(f, t->w, NQ, t->n_t, NULL, NULL);
        report_data_close(r, f);
    }
    FILE *f = report_data(r, "nw_widths.dat");
    if (f)
        for (int i = 0; i < NQ; i++)
            fprintf(f, "%.4f %.6f %.6f %.6f %.6f %.6f\n", t->xq[i], t->yq[i], preds[i],
                    preds[NQ + i], preds[2 * NQ + i], preds[3 * NQ + i]);
    report_data_close(r, f);
    free(preds);
}

// A fine sweep of h for the MSE figure: prints and records the best width.
static void sweep_widths(report_t *r, toy_t *t) {
    FILE *f = report_data(r, "nw_mse.dat");
    double best_te = INFINITY, best_h = 0.0;
    for (int k = 0; k <= 60; k++) {
        float hk = 0.01f * powf(1000.0f, (float)k / 60.0f);   // 0.01 .. 10
        double tr;
        double te = fit(t, hk, &tr, NULL);
        if (te < best_te) {
            best_te = te;
            best_h = hk;
        }
        if (f) fprintf(f, "%.6f %.6f %.6f\n", hk, tr, te);
    }
    report_data_close(r, f);
    printf("best width on the grid: h = %.3f, test MSE %.4f\n", best_h, best_te);
    report_value(r, "nw_best_h", "%.2f", best_h);
    report_value(r, "nw_best_mse", "%.4f", best_te);
}

// The width sweep: printed table, figure panels and the MSE curve.
static void section_widths(report_t *r, toy_t *t) {
    report_section(r, "kernel width");
    printf("%8s %12s %12s %12s %10s\n", "h", "train MSE", "test MSE", "eff. points",
           "90% mass");
    const float widths[] = {0.01f, 0.03f, 0.1f, 0.3f, 1.0f, 3.0f, 10.0f, 100.0f};
    const int nw = (int)(sizeof widths / sizeof widths[0]);
    for (int k = 0; k < nw; k++) {
        double tr, ef;
        double te = fit(t, widths[k], &tr, &ef);
        double top90 = mean_top_mass(t->w, NQ, t->n_t, 0.9f);
        printf("%8.2f %12.4f %12.4f %12.1f %10.1f\n", widths[k], tr, te, ef, top90);
        if (k == 0) {
            report_value(r, "nw_tiny_h", "%g", widths[k]);
            report_value(r, "nw_tiny_train", "%.4f", tr);
            report_value(r, "nw_tiny_eff", "%.1f", ef);
        }
        if (k == nw - 1) {
            report_value(r, "nw_huge_h", "%g", widths[k]);
            double dev = 0.0;   // farthest prediction from the global mean
            for (int i = 0; i < NQ; i++) dev = fmax(dev, fabs(t->pred[i] - t->ymean));
            printf("\nh = %g: every prediction is within %.4f of the mean of y_j\n",
                   widths[k], dev);
            report_value(r, "nw_huge_dev", "%.4f", dev);
            report_value(r, "nw_huge_test", "%.3f", te);
        }
    }
    write_panels(r, t);
    sweep_widths(r, t);
}

// The three promises, measured on the toy problem.
static void section_promises(report_t *r, toy_t *t) {
    int n_t = t->n_t;
    float h = t->h;
    report_section(r, "three promises");
    double te_h = fit(t, h, NULL, NULL);
    double top90 = mean_top_mass(t->w, NQ, n_t, 0.9f);
    double top99 = mean_top_mass(t->w, NQ, n_t, 0.99f);
    float flat[NQ];
    for (int i = 0; i < NQ; i++) flat[i] = (float)t->ymean;
    double te_mean = mse(flat, t->yq, NQ);
    printf("accuracy:  test MSE, plain average of all y_j   %8.4f\n", te_mean);
    printf("           test MSE, attention pooling h = %.2f %8.4f\n", h, te_h);
    report_check_true(r, "accuracy: attention pooling beats the plain average",
                      te_h < te_mean);
    printf("focus:     points holding 90%% of a query's weight %6.1f of %d\n", top90,
           n_t);
    printf("           points holding 99%% of a query's weight %6.1f of %d\n", top99,
           n_t);
    report_check_true(r, "focus: 90% of the weight on under half the points",
                      top90 < 0.5 * n_t);
    int i = 50, near = 0;
    const float *row = t->w + i * n_t;
    double mass_near = 0.0;
    for (int j = 0; j < n_t; j++)
        if (fabsf(t->xt[j] - t->xq[i]) < 2.0f * h) {
            near++;
            mass_near += row[j];
        }
    printf("reading:   query x = %.2f puts %.3f of its weight on the %d points\n",
           t->xq[i], mass_near, near);
    printf("           within 2h of it\n");
    report_check_true(r, "reading: most of the weight lies within 2h", mass_near > 0.5);
    report_value(r, "pr_mean_mse", "%.3f", te_mean);
    report_value(r, "pr_attn_mse", "%.4f", te_h);
    report_value(r, "pr_top90", "%.1f", top90);
    report_value(r, "pr_top99", "%.1f", top99);
    report_value(r, "pr_near_mass", "%.3f", mass_near);
    report_value(r, "pr_near_n", "%.0f", near);
}

// ---------------------------------------------------------------------------

int main(int argc, char **argv) {
    long n_train = 50;
    double width = 0.3;
    const cli_opt_t opts[] = {
        {.name = "--n-train", .meta = "N", .help = "points of the toy data set",
         .kind = CLI_INT, .ival = &n_train, .min = 2, .max = 2000},
        {.name = "--width", .meta = "H", .help = "kernel width h", .kind = CLI_REAL,
         .rval = &width, .min = 0.01, .max = 100},
    };
    cli_t cli = {.program = PROG,
                 .summary = "chapter 1: attention as where to look; kernel regression",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 1};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);   // --help, bad options: exit
    if (rc >= 0) return rc;
    toy_t toy = toy_new((int)n_train, (float)width, cli.seed);

    section_it(&r);
    section_note(&r, cli.seed);
    section_bookstore(&r);
    section_cat(&r);
    section_scoring(&r, cli.seed);
    section_toy_data(&r, &toy);
    section_kernel(&r, &toy);
    section_widths(&r, &toy);
    section_promises(&r, &toy);

    toy_free(&toy);
    return report_close(&r) == 0 ? 0 : 1;
}
