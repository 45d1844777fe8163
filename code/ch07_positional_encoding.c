// ch07_positional_encoding.c -- chapter 7: positional encoding.
//
// Why attention needs positions (a permuted sentence gives permuted outputs
// until positions are added); the sinusoidal encoding and its properties
// (unique rows, offsets as a fixed rotation, dot product against distance,
// positions beyond any seen); a learned table and its hard limit; relative
// positions in the scores (chapter 5's idea); RoPE, which rotates queries and
// keys; ALiBi, which biases scores by distance; and a table comparing them.
//
// --d-model sets the width of the encodings; --seq-len is the "training
// length" L: the learned table's size and the length ALiBi is compared at.
// --context-steps and --context-tests shrink the context-extension experiment,
// the program's slowest part, for the tests (valgrind, sanitizers).
//
// Test args: --context-steps 40 --context-tests 30

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mat.h"
#include "base/rng.h"
#include "attention/attention.h"
#include "attention/self_attention.h"
#include "position/alibi.h"
#include "position/learned.h"
#include "position/rope.h"
#include "position/sinusoidal.h"
#include "program/cli.h"
#include "program/program.h"
#include "program/report.h"
#include "program/xalloc.h"
#include "train/optim.h"

static const char *PROG = "ch07_positional_encoding";
static const double PI = 3.14159265358979323846;

// Fixed sizes the book quotes.
enum {
    SENT_N = 6, SENT_D = 16,   // the permuted sentence
    HEAT_N = 100,              // positions in the heatmap and waveforms
    UNIQUE_N = 1024,           // positions compared pairwise
    FAR_POS = 5000,            // a position far beyond any seen
    ROT_N = 512,               // positions the offset map is checked on
    DECAY_D = 128, DECAY_MAX = 512,   // RoPE's decay curve
    HEADS = 8,                 // ALiBi heads
    SHAW_K = 2,                // relative distances clipped to [-K, K]
};
static const long OFFSETS[3] = {1, 5, 20};

static const char *const SENT[SENT_N] = {"the", "cat", "sat", "on", "the", "mat"};
static const int WORD_ID[SENT_N] = {0, 1, 2, 3, 0, 4};   // both "the" share a vector
static const int PERM[SENT_N] = {5, 4, 3, 2, 1, 0};      // read backwards

typedef struct {
    int d, len;   // --d-model, --seq-len (L)
    int ext_steps, ext_eval;   // --context-steps, --context-tests
} config_t;

// ---------------------------------------------------------------------------
// small helpers

// Largest |a[i] - b[perm[i]]| over rows i of two (n, d) matrices.
static double perm_diff(const float *a, const float *b, const int *perm, int n, int d) {
    double worst = 0.0;
    for (int i = 0; i < n; i++)
        worst = fmax(worst, mat_max_abs_diff(a + i * d, b + perm[i] * d, (size_t)d));
    return worst;
}

// Row-major (d, d) matrix m times column vector x -> y, in double.
static void mat_vec(const float *m, const float *x, double *y, int d) {
    for (int i = 0; i < d; i++) {
        double s = 0.0;
        for (int j = 0; j < d; j++) s += (double)m[i * d + j] * x[j];
        y[i] = s;
    }
}

static double cosine(const float *a, const float *b, int d) {
    return mat_dot(a, b, d) / (mat_norm(a, d) * mat_norm(b, d));
}

// ---------------------------------------------------------------------------
// why: permutation

// Runs the layer on the sentence and on its permutation, with or without
// sinusoidal positions added; returns max |out(perm x)[i] - out(x)[PERM[i]]|
// and the difference between the outputs of the two "the" tokens.
static void run_sentence(const self_attn_params_t *layer, const float *emb,
                         int with_pos, double *d_perm, double *d_the) {
    enum { N = SENT_N, D = SENT_D };
    float x[N * D], xp[N * D], pe[N * D], q[N * D], k[N * D], v[N * D];
    float w[N * N], out[N * D], out_p[N * D];
    sinusoidal_table(pe, N, D, 0, SINUSOIDAL_BASE);
    for (int i = 0; i < N; i++) {
        memcpy(x + i * D, emb + WORD_ID[i] * D, sizeof(float) * D);
        memcpy(xp + i * D, emb + WORD_ID[PERM[i]] * D, sizeof(float) * D);
    }
    if (with_pos) {   // position i goes to whatever word now sits at i
        mat_add(x, pe, N * D);
        mat_add(xp, pe, N * D);
    }
    self_attn_forward(layer, x, NULL, q, k, v, w, out, N);
    self_attn_forward(layer, xp, NULL, q, k, v, w, out_p, N);
    *d_perm = perm_diff(out_p, out, PERM, N, D);
    *d_the = mat_max_abs_diff(out, out + 4 * D, D);
}

static void section_permutation(report_t *r, rng_t *rng) {
    enum { D = SENT_D };
    self_attn_params_t layer;
    xok(PROG, self_attn_alloc(&layer, D, D, D, 0), "self_attn_alloc");
    self_attn_init(&layer, rng);
    float emb[5 * D];
    rng_fill_normal(rng, emb, 5 * D, 0.0f, 1.0f);
    double p0, t0, p1, t1;
    run_sentence(&layer, emb, 0, &p0, &t0);
    run_sentence(&layer, emb, 1, &p1, &t1);

    report_section(r, "permutation");
    printf("sentence: ");
    for (int i = 0; i < SENT_N; i++) printf("%s ", SENT[i]);
    printf("\npermuted: ");
    for (int i = 0; i < SENT_N; i++) printf("%s ", SENT[PERM[i]]);
    printf("\nrandom word vectors (d = %d), one Xavier self-attention layer\n", D);
    printf("\nwithout positions:\n");
    report_check(r, "max |out(permuted)[i] - out[perm[i]]|", p0, 1e-6);
    report_check(r, "max |out(the, 1st) - out(the, 2nd)|", t0, 0.0);
    printf("with sinusoidal positions added to the word vectors:\n");
    printf("  max |out(permuted)[i] - out[perm[i]]| = %.4f\n", p1);
    printf("  max |out(the, 1st) - out(the, 2nd)|   = %.4f\n", t1);
    report_check_true(r, "permuted outputs now differ (> 0.01)", p1 > 0.01);
    report_check_true(r, "the two \"the\" now differ (> 0.01)", t1 > 0.01);
    report_value(r, "perm_diff_nopos", "%.1e", p0);
    report_value(r, "perm_diff_pos", "%.4f", p1);
    report_value(r, "the_diff_pos", "%.4f", t1);
    report_value(r, "sent_d", "%.0f", D);
    self_attn_free(&layer);
}

// ---------------------------------------------------------------------------
// the sinusoidal table

static void write_waves(report_t *r, const float *pe, int d) {
    static const int DIMS[4] = {0, 4, 8, 16};
    FILE *f = report_data(r, "sin_waves.dat");
    if (f) {   // integer positions (the table) ...
        fprintf(f, "# pos PE[:,0] PE[:,4] PE[:,8] PE[:,16]\n");
        for (int p = 0; p < HEAT_N; p++) {
            fprintf(f, "%d", p);
            for (int c = 0; c < 4; c++)
                fprintf(f, " %.6f", DIMS[c] < d ? pe[p * d + DIMS[c]] : 0.0f);
            fprintf(f, "\n");
        }
        fprintf(f, "\n\n# pos, fine grid: sin(pos w_i) between the integers\n");
        for (int s = 0; s <= 8 * (HEAT_N - 1); s++) {  // ... and the curve through them
            double pos = s / 8.0;
            fprintf(f, "%.3f", pos);
            for (int c = 0; c < 4; c++)
                fprintf(f, " %.6f", sin(pos * sinusoidal_freq(DIMS[c] / 2, d,
                                                                SINUSOIDAL_BASE)));
            fprintf(f, "\n");
        }
    }
    report_data_close(r, f);
}

static void section_table(report_t *r, const config_t *cfg) {
    int d = cfg->d;
    float *pe = xfloats(PROG, (size_t)HEAT_N * d);
    sinusoidal_table(pe, HEAT_N, d, 0, SINUSOIDAL_BASE);

    report_section(r, "sinusoidal table");
    printf("PE(pos, 2i) = sin(pos w_i), PE(pos, 2i+1) = cos(pos w_i), "
           "w_i = 10000^(-2i/d)\n");
    printf("d = %d; first 6 positions (rows), first 8 columns:\n", d);
    float corner[6 * 8] = {0};
    for (int p = 0; p < 6; p++)
        for (int c = 0; c < 8 && c < d; c++) corner[p * 8 + c] = pe[p * d + c];
    report_print_matrix(corner, 6, 8, 8, 4, NULL, NULL);
    printf("\n%6s %4s %12s %14s\n", "column", "i", "w_i", "wavelength");
    static const int DIMS[4] = {0, 4, 8, 16};
    for (int c = 0; c < 4 && DIMS[c] < d; c++) {
        double w = sinusoidal_freq(DIMS[c] / 2, d, SINUSOIDAL_BASE);
        printf("%6d %4d %12.6f %14.2f\n", DIMS[c], DIMS[c] / 2, w, 2 * PI / w);
    }
    double w_last = sinusoidal_freq(d / 2 - 1, d, SINUSOIDAL_BASE);
    printf("%6d %4d %12.6f %14.2f\n", d - 2, d / 2 - 1, w_last, 2 * PI / w_last);
    report_value(r, "d", "%.0f", d);
    report_value(r, "wave_0", "%.1f", 2 * PI);
    report_value(r, "wave_16", "%.1f", 2 * PI / sinusoidal_freq(8, d, SINUSOIDAL_BASE));
    report_value(r, "wave_last", "%.0f", 2 * PI / w_last);
    report_value(r, "heat_n", "%.0f", HEAT_N);

    FILE *f = report_data(r, "sin_heatmap.dat");
    report_write_matrix(f, pe, HEAT_N, d, NULL, NULL);
    report_data_close(r, f);
    write_waves(r, pe, d);
    free(pe);
}

// ---------------------------------------------------------------------------
// properties: unique rows of equal length

static void section_unique(report_t *r, const config_t *cfg) {
    int d = cfg->d;
    float *pe = xfloats(PROG, (size_t)UNIQUE_N * d);
    sinusoidal_table(pe, UNIQUE_N, d, 0, SINUSOIDAL_BASE);
    double min_dist = INFINITY, norm_err = 0.0;
    int arg_a = 0, arg_b = 1;
    for (int a = 0; a < UNIQUE_N; a++) {
        norm_err =
                fmax(norm_err, fabs(mat_norm(pe + (size_t)a * d, d) - sqrt(d / 2.0)));
        for (int b = a + 1; b < UNIQUE_N; b++) {
            double s = 0.0;
            for (int c = 0; c < d; c++) {
                double t = (double)pe[(size_t)a * d + c] - pe[(size_t)b * d + c];
                s += t * t;
            }
            if (sqrt(s) < min_dist) min_dist = sqrt(s), arg_a = a, arg_b = b;
        }
    }
    report_section(r, "unique positions");
    printf("positions 0..%d, d = %d: %d pairs of rows compared\n", UNIQUE_N - 1, d,
           UNIQUE_N * (UNIQUE_N - 1) / 2);
    printf("closest pair: positions %d and %d, distance %.4f\n", arg_a, arg_b,
           min_dist);
    report_check_true(r, "every position has its own vector (distance > 0.1)",
                      min_dist > 0.1);
    char label[80];
    snprintf(label, sizeof label, "every row has length sqrt(d/2) = %.4f",
             sqrt(d / 2.0));
    report_check(r, label, norm_err, 1e-5);
    report_value(r, "uniq_n", "%.0f", UNIQUE_N);
    report_value(r, "uniq_min", "%.4f", min_dist);
    report_value(r, "uniq_a", "%.0f", arg_a);
    report_value(r, "uniq_b", "%.0f", arg_b);
    report_value(r, "row_norm", "%.4f", sqrt(d / 2.0));
    free(pe);
}

// ---------------------------------------------------------------------------
// properties: moving k positions is one fixed rotation

// max over pos in [pos0, pos0 + n) of |M_k PE(pos) - PE(pos + k)|, and
// max |M_k M_k^T - I|.
static void offset_errors(int d, long k, long pos0, int n, double *err, double *orth) {
    float *m = xfloats(PROG, (size_t)d * d);
    float *pe = xfloats(PROG, (size_t)(n + k) * d);
    double *y = xmalloc(PROG, sizeof(double) * (size_t)d);
    sinusoidal_offset_matrix(m, d, k, SINUSOIDAL_BASE);
    sinusoidal_table(pe, (int)(n + k), d, pos0, SINUSOIDAL_BASE);
    *err = 0.0;
    for (int p = 0; p < n; p++) {
        mat_vec(m, pe + (size_t)p * d, y, d);
        for (int c = 0; c < d; c++)
            *err = fmax(*err, fabs(y[c] - pe[(size_t)(p + k) * d + c]));
    }
    *orth = 0.0;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++)
            *orth = fmax(*orth, fabs(mat_dot(m + i * d, m + j * d, d) - (i == j)));
    free(m);
    free(pe);
    free(y);
}

static void section_rotation(report_t *r, const config_t *cfg) {
    int d = cfg->d;
    report_section(r, "offset as rotation");
    float m[4 * 4];
    sinusoidal_offset_matrix(m, 4, 1, SINUSOIDAL_BASE);   // d = 4 for display
    printf("M_1 for d = 4 (two 2x2 rotation blocks; PE(pos + 1) = M_1 PE(pos)):\n");
    report_print_matrix(m, 4, 4, 9, 4, NULL, NULL);
    printf("\nd = %d, M_k built from k alone, applied to positions 0..%d:\n", d,
           ROT_N - 1);
    for (int t = 0; t < 3; t++) {
        double err, orth;
        offset_errors(d, OFFSETS[t], 0, ROT_N, &err, &orth);
        char label[80];
        snprintf(label, sizeof label, "k = %2ld: max |M_k PE(pos) - PE(pos + k)|",
                 OFFSETS[t]);
        report_check(r, label, err, 1e-5);
        snprintf(label, sizeof label, "k = %2ld: max |M_k M_k^T - I| (a rotation)",
                 OFFSETS[t]);
        report_check(r, label, orth, 1e-5);
        if (t == 2) report_value(r, "rot_err_20", "%.1e", err);
    }
    report_value(r, "rot_n", "%.0f", ROT_N);
}

// ---------------------------------------------------------------------------
// properties: dot product against distance

static void section_dot(report_t *r, const config_t *cfg) {
    int d = cfg->d, n = 2 * HEAT_N;
    float *pe = xfloats(PROG, (size_t)n * d);
    sinusoidal_table(pe, n, d, 0, SINUSOIDAL_BASE);
    FILE *f = report_data(r, "sin_dot.dat");
    if (f) fprintf(f, "# k  PE(0).PE(k)  PE(50).PE(50+k)  sum_i cos(k w_i)\n");
    double worst = 0.0;
    report_section(r, "dot product vs distance");
    printf("PE(p) . PE(p + k) = sum_i cos(k w_i): the same for every p\n");
    printf("%5s %14s %16s %16s\n", "k", "PE(0).PE(k)", "PE(50).PE(50+k)",
           "sum cos(k w_i)");
    for (int k = 0; k < HEAT_N; k++) {
        double formula = 0.0;
        for (int i = 0; i < d / 2; i++)
            formula += cos(k * sinusoidal_freq(i, d, SINUSOIDAL_BASE));
        double a = mat_dot(pe, pe + (size_t)k * d, d);
        double b = mat_dot(pe + 50 * d, pe + (size_t)(50 + k) * d, d);
        for (int p = 0; p + k < n; p++)
            worst = fmax(worst,
                         fabs(mat_dot(pe + (size_t)p * d, pe + (size_t)(p + k) * d, d) -
                              formula) /
                                 (d / 2.0));
        if (k == 0 || k == 1 || k == 2 || k == 5 || k == 10 || k == 20 || k == 50)
            printf("%5d %14.4f %16.4f %16.4f\n", k, a, b, formula);
        if (f) fprintf(f, "%d %.6f %.6f %.6f\n", k, a, b, formula);
        if (k == 1) report_value(r, "dot_1", "%.2f", formula);
        if (k == 10) report_value(r, "dot_10", "%.2f", formula);
        if (k == 50) report_value(r, "dot_50", "%.2f", formula);
    }
    report_data_close(r, f);
    report_check(r, "max |PE(p).PE(p+k) - sum cos(k w_i)| / (d/2)", worst,
                 1e-5);
    report_value(r, "dot_0", "%.0f", d / 2.0);
    free(pe);
}

// ---------------------------------------------------------------------------
// properties: positions beyond any seen

static void section_extrapolation(report_t *r, const config_t *cfg) {
    int d = cfg->d, L = cfg->len;
    float *pe = xfloats(PROG, (size_t)d), *seen = xfloats(PROG, (size_t)L * d);
    sinusoidal_table(pe, 1, d, FAR_POS, SINUSOIDAL_BASE);
    sinusoidal_table(seen, L, d, 0, SINUSOIDAL_BASE);
    double err, orth, nearest = INFINITY, lo = 1.0, hi = -1.0;
    offset_errors(d, 7, FAR_POS, 64, &err, &orth);
    for (int p = 0; p < L; p++) {
        double s = 0.0;
        for (int c = 0; c < d; c++) {
            double t = (double)pe[c] - seen[(size_t)p * d + c];
            s += t * t;
        }
        nearest = fmin(nearest, sqrt(s));
    }
    for (int c = 0; c < d; c++) lo = fmin(lo, pe[c]), hi = fmax(hi, pe[c]);
    report_section(r, "extrapolation");
    printf("seen while training: positions 0..%d (L = %d); asked for: %d\n", L - 1, L,
           FAR_POS);
    printf("PE(%d): entries in [%.4f, %.4f], length %.4f\n", FAR_POS, lo, hi,
           mat_norm(pe, d));
    printf("distance to the nearest seen row: %.4f\n", nearest);
    report_check_true(r, "PE(5000) is computed, unlike any seen row (distance > 0.1)",
                      nearest > 0.1);
    report_check(r, "k = 7 rotation still exact at positions 5000..5063", err, 1e-5);
    report_value(r, "far_pos", "%.0f", FAR_POS);
    report_value(r, "far_nearest", "%.4f", nearest);
    free(pe);
    free(seen);
}

// ---------------------------------------------------------------------------
// a learned table

static void section_learned(report_t *r, const config_t *cfg, rng_t *rng) {
    int d = cfg->d, L = cfg->len;
    learned_pe_t tab;
    xok(PROG, learned_pe_alloc(&tab, L, d), "learned_pe_alloc");
    learned_pe_init(&tab, rng, 0.02f);
    int *pos = xmalloc(PROG, sizeof(int) * (size_t)(L + 1));
    for (int p = 0; p <= L; p++) pos[p] = p;
    float *out = xfloats(PROG, (size_t)(L + 1) * d);
    float *sin_pe = xfloats(PROG, (size_t)L * d);
    sinusoidal_table(sin_pe, L, d, 0, SINUSOIDAL_BASE);

    report_section(r, "learned table");
    printf("table (%d, %d), N(0, 0.02^2) at the start: %d parameters\n", L, d, L * d);
    // snippet: learned_limit
    int ok = learned_pe_lookup(&tab, pos, L, out);          // positions 0..L-1
    int beyond = learned_pe_lookup(&tab, pos + L, 1, out);  // position L
    // end snippet
    printf("lookup positions 0..%d: status %d\n", L - 1, ok);
    printf("lookup position %d:     status %d (LEARNED_PE_OUT_OF_RANGE)\n", L, beyond);
    report_check_true(r, "positions inside the table are found", ok == 0);
    report_check_true(r, "position L has no row: an error, not a vector",
                      beyond == LEARNED_PE_OUT_OF_RANGE);
    double c_learn = 0.0, c_sin = 0.0;
    for (int p = 0; p + 1 < L; p++) {
        c_learn +=
                cosine(tab.table + (size_t)p * d, tab.table + (size_t)(p + 1) * d, d);
        c_sin += cosine(sin_pe + (size_t)p * d, sin_pe + (size_t)(p + 1) * d, d);
    }
    c_learn /= L - 1, c_sin /= L - 1;
    printf("mean cosine of neighbouring rows: learned %.4f, sinusoidal %.4f\n",
           c_learn, c_sin);
    report_value(r, "learned_params", "%.0f", (double)L * d);
    report_value(r, "learned_status", "%.0f", beyond);
    report_value(r, "cos_learned", "%.4f", c_learn);
    report_value(r, "cos_sin", "%.4f", c_sin);
    report_value(r, "L", "%.0f", L);
    learned_pe_free(&tab);
    free(pos);
    free(out);
    free(sin_pe);
}

// ---------------------------------------------------------------------------
// relative positions in the scores (chapter 5's idea, in brief)

// Shaw et al.: score(i, j) = q_i . (k_j + a[clip(j - i, -K, K) + K]) / sqrt(d),
// a (2K + 1, d) a learned table of distance vectors.
static double shaw_score(const float *q, const float *k, const float *a, int i, int j,
                         int d) {
    int dist = j - i < -SHAW_K ? -SHAW_K : j - i > SHAW_K ? SHAW_K : j - i;
    double s = 0.0;
    for (int c = 0; c < d; c++) s += (double)q[c] * (k[c] + a[(dist + SHAW_K) * d + c]);
    return s / sqrt(d);
}

static void section_relative(report_t *r) {
    enum { N = 7 };
    report_section(r, "relative distances");
    printf("clip(j - i, -%d, %d) for n = %d: the row of a used by query i, key j\n",
           SHAW_K, SHAW_K, N);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            int dist = j - i < -SHAW_K ? -SHAW_K : j - i > SHAW_K ? SHAW_K : j - i;
            printf("%4d", dist);
        }
        printf("\n");
    }
    printf("table a: %d rows (distances -%d..%d), whatever the length\n",
           2 * SHAW_K + 1, SHAW_K, SHAW_K);
    report_value(r, "shaw_k", "%.0f", SHAW_K);
    report_value(r, "shaw_rows", "%.0f", 2 * SHAW_K + 1);
}

// ---------------------------------------------------------------------------
// RoPE: the rotation

static void section_rope_rotation(report_t *r, const config_t *cfg, rng_t *rng) {
    int d = cfg->d;
    float *theta = xfloats(PROG, (size_t)d / 2), *x = xfloats(PROG, (size_t)8 * d);
    float *naive = xfloats(PROG, (size_t)8 * d), *rm = xfloats(PROG, (size_t)d * d);
    double *y = xmalloc(PROG, sizeof(double) * (size_t)d);
    rope_theta(theta, d, ROPE_BASE);
    float *base_x = xfloats(PROG, (size_t)d);
    rng_fill_normal(rng, base_x, d, 0.0f, 1.0f);
    for (int p = 0; p < 8; p++) memcpy(x + (size_t)p * d, base_x, sizeof(float) * d);
    double worst_norm = 0.0, worst_naive = 0.0;
    for (int p = 0; p < 8; p++) {   // the naive way: a (d, d) matrix per position
        rope_matrix(rm, d, p, ROPE_BASE);
        mat_vec(rm, base_x, y, d);
        for (int c = 0; c < d; c++) naive[(size_t)p * d + c] = (float)y[c];
    }
    rope_apply(x, 8, d, 0, ROPE_BASE);   // row p turned for position p
    for (int p = 0; p < 8; p++) {
        worst_norm = fmax(worst_norm, fabs(mat_norm(x + (size_t)p * d, d) -
                                           mat_norm(base_x, d)));
        worst_naive = fmax(worst_naive, mat_max_abs_diff(x + (size_t)p * d,
                                                         naive + (size_t)p * d, d));
    }
    report_section(r, "rope rotation");
    printf("theta_i = 10000^(-2i/d), d = %d:\n", d);
    for (int i = 0; i < d / 2; i += (d / 2 > 4 ? d / 8 : 1))
        printf("  theta_%-3d = %.6f rad per position\n", i, theta[i]);
    printf("one vector x at positions 0..7, pair 0 (columns 0, 1):\n");
    printf("%4s %9s %9s %10s\n", "pos", "x'_0", "x'_1", "angle");
    for (int p = 0; p < 8; p++)
        printf("%4d %9.4f %9.4f %10.4f\n", p, x[(size_t)p * d], x[(size_t)p * d + 1],
               atan2(x[(size_t)p * d + 1], x[(size_t)p * d]));
    report_check(r, "lengths unchanged: max ||R x| - |x||", worst_norm, 1e-5);
    report_check(r, "pairwise rope_apply == (d, d) matrix R_pos x", worst_naive, 1e-5);
    report_value(r, "theta_2", "%.4f", theta[2]);   // d >= 18: pair 2 exists

    FILE *f = report_data(r, "rope_rotation.dat");
    if (f) {   // pair 0 and pair 2, positions 0..7: x and y of the turned pair
        fprintf(f, "# pos  pair0_x pair0_y  pair2_x pair2_y\n");
        int p2 = d >= 6 ? 2 : 0;
        for (int p = 0; p < 8; p++)
            fprintf(f, "%d %.6f %.6f %.6f %.6f\n", p, x[(size_t)p * d],
                    x[(size_t)p * d + 1], x[(size_t)p * d + 2 * p2],
                    x[(size_t)p * d + 2 * p2 + 1]);
    }
    report_data_close(r, f);
    free(theta), free(x), free(naive), free(rm), free(y), free(base_x);
}

// ---------------------------------------------------------------------------
// RoPE: the score depends on m - n only

// q . k / sqrt(d) after turning q for position m and k for position n.
static double rope_score(const float *q, const float *k, long m, long n, int d,
                         float *qr, float *kr) {
    memcpy(qr, q, sizeof(float) * d);
    memcpy(kr, k, sizeof(float) * d);
    rope_apply(qr, 1, d, m, ROPE_BASE);
    rope_apply(kr, 1, d, n, ROPE_BASE);
    return mat_dot(qr, kr, d) / sqrt(d);
}

static void section_rope_relative(report_t *r, const config_t *cfg, rng_t *rng) {
    int d = cfg->d;
    float *q = xfloats(PROG, (size_t)d), *k = xfloats(PROG, (size_t)d);
    float *qr = xfloats(PROG, (size_t)d), *kr = xfloats(PROG, (size_t)d);
    rng_fill_normal(rng, q, d, 0.0f, 1.0f);
    rng_fill_normal(rng, k, d, 0.0f, 1.0f);
    report_section(r, "rope relative");
    printf("q, k ~ N(0, 1), d = %d; score = R_m q . R_n k / sqrt(d)\n", d);
    printf("%6s %6s %6s %10s\n", "m", "n", "m - n", "score");
    static const long PAIRS[][2] = {{3, 0}, {10, 7}, {100, 97}, {5000, 4997},
                                    {0, 3}, {7, 10}, {4997, 5000}};
    for (size_t t = 0; t < sizeof PAIRS / sizeof PAIRS[0]; t++)
        printf("%6ld %6ld %6ld %10.6f\n", PAIRS[t][0], PAIRS[t][1],
               PAIRS[t][0] - PAIRS[t][1],
               rope_score(q, k, PAIRS[t][0], PAIRS[t][1], d, qr, kr));
    double worst = 0.0;   // every (m, n) in a 64 x 64 grid, and the grid at +5000
    for (long m = 0; m < 64; m++)
        for (long n = 0; n < 64; n++) {
            double ref = rope_score(q, k, m - n, 0, d, qr, kr);
            worst = fmax(worst, fabs(rope_score(q, k, m, n, d, qr, kr) - ref));
            worst = fmax(worst, fabs(rope_score(q, k, m + 5000, n + 5000, d, qr, kr) -
                                     ref));
        }
    report_check(r, "max |score(m, n) - score(m - n, 0)| over both grids", worst,
                 1e-5);
    double plain = mat_dot(q, k, d) / sqrt(d);
    printf("unrotated q . k / sqrt(d) = %.6f = score(m, m) for every m\n", plain);
    report_check(r, "score(m, m) == q . k / sqrt(d)",
                 fabs(rope_score(q, k, 4321, 4321, d, qr, kr) - plain), 1e-5);
    report_value(r, "rope_rel_err", "%.1e", worst);
    report_value(r, "rope_score_3", "%.4f", rope_score(q, k, 3, 0, d, qr, kr));
    free(q), free(k), free(qr), free(kr);
}

// ---------------------------------------------------------------------------
// RoPE: scores fade with distance

static void section_rope_decay(report_t *r) {
    enum { D = DECAY_D };
    float ones[D], qr[D], kr[D];
    for (int c = 0; c < D; c++) ones[c] = 1.0f;
    FILE *f = report_data(r, "rope_decay.dat");
    if (f) fprintf(f, "# distance  bound  bound/bound(0)  score(q = k = 1)/d\n");
    double b0 = rope_decay_bound(D, 0, ROPE_BASE);
    report_section(r, "rope decay");
    printf("d = %d; the bound of Su et al. and the score of q = k = (1, ..., 1)\n", D);
    printf("%9s %10s %14s\n", "distance", "bound", "score / |q||k|");
    double prev_bound = 0.0;
    double avg_near = 0.0, avg_far = 0.0;
    for (int dist = 0; dist <= DECAY_MAX; dist++) {
        double b = rope_decay_bound(D, dist, ROPE_BASE);
        double s = rope_score(ones, ones, dist, 0, D, qr, kr) * sqrt(D) / D;
        if (f) fprintf(f, "%d %.6f %.6f %.6f\n", dist, b, b / b0, s);
        if (dist == 0 || dist == 1 || dist == 4 || dist == 16 || dist == 64 ||
            dist == 256 || dist == 512)
            printf("%9d %10.4f %14.4f\n", dist, b, s);
        if (dist < 16) avg_near += b / 16;
        if (dist >= DECAY_MAX - 15) avg_far += b / 16;
        if (dist == 0) prev_bound = b;
    }
    report_data_close(r, f);
    printf("mean bound over distances 0..15: %.4f; over %d..%d: %.4f\n", avg_near,
           DECAY_MAX - 15, DECAY_MAX, avg_far);
    report_check_true(r, "the bound shrinks with distance (far mean < near mean / 2)",
                      avg_far < avg_near / 2);
    report_value(r, "decay_d", "%.0f", D);
    report_value(r, "decay_b0", "%.2f", prev_bound);
    report_value(r, "decay_near", "%.2f", avg_near);
    report_value(r, "decay_far", "%.2f", avg_far);
    report_value(r, "decay_max", "%.0f", DECAY_MAX);
}

// ---------------------------------------------------------------------------
// RoPE: the base, and running past the training length

// The task: EXT_V random token vectors; a sequence of n - 1 distinct tokens,
// then a copy of one of them, at a random earlier position p. The last token
// queries the n - 1 before it and must put its largest weight on key p: find
// the earlier copy of yourself, wherever it is. One RoPE head, q = x W_q,
// k = x W_k, both (EXT_D, EXT_D), trained at length EXT_L.
enum { EXT_D = 32, EXT_V = 512, EXT_L = 32, EXT_BATCH = 8 };
enum { EXT_PLAIN, EXT_PI, EXT_NTK, EXT_METHODS };
static const char *const EXT_NAME[EXT_METHODS] = {"plain", "interpolated", "NTK-aware"};

typedef struct {
    int steps, eval;         // training steps, test sequences per length
    float *emb;              // (EXT_V, EXT_D) token vectors
    float w[2 * EXT_D * EXT_D];   // W_q then W_k
    int tok[4 * EXT_L];      // the current sequence
    int pool[EXT_V];         // a shuffle of the token ids
    float k[4 * EXT_L * EXT_D], q[EXT_D], s[4 * EXT_L];
} ext_t;

// A sequence of n tokens whose last is a copy of token p < n - 1; returns p.
static int ext_sequence(ext_t *e, int n, rng_t *rng) {
    int *pool = e->pool;
    for (int v = 0; v < EXT_V; v++) pool[v] = v;
    for (int t = 0; t < n - 1; t++) {          // n - 1 distinct tokens
        int j = t + (int)(rng_uniform(rng) * (EXT_V - t));
        if (j >= EXT_V) j = EXT_V - 1;
        int tmp = pool[t];
        pool[t] = pool[j], pool[j] = tmp;
        e->tok[t] = pool[t];
    }
    int p = (int)(rng_uniform(rng) * (n - 1));
    if (p > n - 2) p = n - 2;
    e->tok[n - 1] = e->tok[p];
    return p;
}

// Scores of the last token against the n - 1 before it, positions scaled by
// scale and turned with the given base: e->s (n - 1,), e->q and e->k turned.
static void ext_scores(ext_t *e, int n, double scale, double base) {
    const float *wq = e->w, *wk = e->w + EXT_D * EXT_D;
    mat_mul(e->emb + e->tok[n - 1] * EXT_D, wq, e->q, 1, EXT_D, EXT_D);
    for (int t = 0; t < n - 1; t++)
        mat_mul(e->emb + e->tok[t] * EXT_D, wk, e->k + t * EXT_D, 1, EXT_D, EXT_D);
    rope_apply_scaled(e->q, 1, EXT_D, n - 1, scale, base);
    rope_apply_scaled(e->k, n - 1, EXT_D, 0, scale, base);
    attention_scores(e->q, e->k, e->s, 1, n - 1, EXT_D);
}

// Softmax of e->s (m,) in place; -> -log weight[p].
static double ext_softmax(float *s, int m, int p) {
    double mx = s[0], z = 0.0;
    for (int j = 1; j < m; j++) mx = fmax(mx, s[j]);
    for (int j = 0; j < m; j++) z += exp(s[j] - mx);
    double loss = -(s[p] - mx - log(z));
    for (int j = 0; j < m; j++) s[j] = (float)(exp(s[j] - mx) / z);
    return loss;
}

// One sequence at length EXT_L: loss, and its gradient added to g (2 D D,).
static double ext_grad(ext_t *e, float *g, int p) {
    enum { N = EXT_L, M = EXT_L - 1, D = EXT_D };
    ext_scores(e, N, 1.0, ROPE_BASE);
    double loss = ext_softmax(e->s, M, p);
    e->s[p] -= 1.0f;                           // dLoss/dscore_j = w_j - [j == p]
    float dq[D] = {0}, dk[M * D];
    float c = 1.0f / sqrtf((float)D);          // score = q'.k'_j / sqrt(D)
    for (int j = 0; j < M; j++)
        for (int a = 0; a < D; a++) {
            dq[a] += e->s[j] * c * e->k[j * D + a];     // d q' (turned)
            dk[j * D + a] = e->s[j] * c * e->q[a];      // d k'_j (turned)
        }
    rope_apply_scaled(dq, 1, D, N - 1, -1.0, ROPE_BASE);   // R^T: turn back
    rope_apply_scaled(dk, M, D, 0, -1.0, ROPE_BASE);
    const float *xq = e->emb + e->tok[N - 1] * D;
    for (int a = 0; a < D; a++)
        for (int b = 0; b < D; b++) g[a * D + b] += xq[a] * dq[b];
    for (int j = 0; j < M; j++) {
        const float *xk = e->emb + e->tok[j] * D;
        for (int a = 0; a < D; a++)
            for (int b = 0; b < D; b++) g[D * D + a * D + b] += xk[a] * dk[j * D + b];
    }
    return loss;
}

// Percent of e->eval sequences of length n whose largest weight is on the
// copy: all, and (far) those whose copy lies EXT_L or more positions back.
typedef struct {
    double all, far;
} ext_acc_t;

static ext_acc_t ext_accuracy(ext_t *e, int n, int method, rng_t *rng) {
    double s = (double)n / EXT_L;              // the stretch
    double scale = method == EXT_PI ? 1.0 / s : 1.0;
    double base = method == EXT_NTK ? rope_ntk_base(ROPE_BASE, EXT_D, s) : ROPE_BASE;
    int hits = 0, far = 0, far_hits = 0;
    for (int i = 0; i < e->eval; i++) {
        int p = ext_sequence(e, n, rng), best = 0;
        ext_scores(e, n, scale, base);
        for (int j = 1; j < n - 1; j++)
            if (e->s[j] > e->s[best]) best = j;
        hits += best == p;
        if (n - 1 - p >= EXT_L) far++, far_hits += best == p;
    }
    return (ext_acc_t){100.0 * hits / e->eval, far ? 100.0 * far_hits / far : 0.0};
}

// Trains e->w on e->steps batches at length EXT_L with Adam; first and last:
// the mean loss of the first and of the last 20 steps.
static void ext_train(ext_t *e, rng_t *rng, double *first, double *last) {
    enum { P = 2 * EXT_D * EXT_D };
    float *g = xfloats(PROG, P), *m = xfloats(PROG, P), *v = xfloats(PROG, P);
    memset(m, 0, P * sizeof(float)), memset(v, 0, P * sizeof(float));
    optim_adam_t adam = {.lr = 0.01f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f,
                         .m = m, .v = v, .n = P};
    *first = *last = 0.0;
    for (int step = 0; step < e->steps; step++) {
        memset(g, 0, P * sizeof(float));
        double loss = 0.0;
        for (int b = 0; b < EXT_BATCH; b++)
            loss += ext_grad(e, g, ext_sequence(e, EXT_L, rng)) / EXT_BATCH;
        mat_scale(g, P, 1.0f / EXT_BATCH);
        optim_adam_step(&adam, e->w, g);
        if (step < 20) *first += loss / 20;
        if (step >= e->steps - 20) *last += loss / 20;
    }
    free(g), free(m), free(v);
}

// Prints the accuracy table: acc[method][f] at length EXT_L 2^f, and far[method]
// (at 4 EXT_L, copies EXT_L or more back). Every method sees the same sequences.
static void ext_table(ext_t *e, uint64_t seed, double acc[EXT_METHODS][3],
                     double far[EXT_METHODS]) {
    printf("%% of %d test sequences with the largest weight on the copy:\n", e->eval);
    printf("%-13s %9d %9d %9d %14s\n", "length", EXT_L, 2 * EXT_L, 4 * EXT_L,
           "4x, far");
    for (int meth = 0; meth < EXT_METHODS; meth++) {
        printf("%-13s", EXT_NAME[meth]);
        for (int f = 0; f < 3; f++) {
            rng_t eval;
            rng_seed(&eval, seed + 1 + (uint64_t)f);
            ext_acc_t a = ext_accuracy(e, EXT_L << f, meth, &eval);
            acc[meth][f] = a.all;
            far[meth] = a.far;
            printf(" %9.1f", acc[meth][f]);
        }
        printf(" %14.1f\n", far[meth]);
    }
    printf("(far: the copy %d or more positions back, a distance training never saw)\n",
           EXT_L);
}

// The NTK-aware bases, the longest wavelengths, the pairs that never turn once.
static void ext_base_facts(report_t *r) {
    double ntk_base2 = rope_ntk_base(ROPE_BASE, EXT_D, 2.0);
    double ntk_base4 = rope_ntk_base(ROPE_BASE, EXT_D, 4.0);
    printf("NTK-aware base %.0f for 2x, %.0f for 4x; interpolation scales positions\n"
           "by 1/2 and 1/4\n", ntk_base2, ntk_base4);
    double wl = rope_max_wavelength(EXT_D, ROPE_BASE);
    double wl500k = rope_max_wavelength(EXT_D, 500000.0);
    printf("longest wavelength at d = %d: %.0f positions with base %d,\n"
           "%.0f with base 500000\n", EXT_D, wl, ROPE_BASE, wl500k);
    int long_pairs = 0;                        // pairs that never turn once in L
    for (int i = 0; i < EXT_D / 2; i++)
        long_pairs += 2.0 * PI * pow(ROPE_BASE, 2.0 * i / EXT_D) > EXT_L;
    printf("%d of %d pairs have a wavelength longer than %d: training never saw\n"
           "them turn once\n", long_pairs, EXT_D / 2, EXT_L);
    report_value(r, "ext_long_pairs", "%.0f", long_pairs);
    report_value(r, "ext_pairs", "%.0f", EXT_D / 2);
    report_value(r, "ntk_base_2x", "%.0f", ntk_base2);
    report_value(r, "ntk_base_4x", "%.0f", ntk_base4);
    report_value(r, "rope_base_wavelength_max", "%.0f", wl);
    report_value(r, "rope_base_wavelength_max_500k", "%.0f", wl500k);
}

static void section_context(report_t *r, const config_t *cfg, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    ext_t *e = xmalloc(PROG, sizeof *e);
    e->steps = cfg->ext_steps, e->eval = cfg->ext_eval;
    e->emb = xfloats(PROG, EXT_V * EXT_D);
    rng_fill_normal(&rng, e->emb, EXT_V * EXT_D, 0.0f, 1.0f);
    rng_fill_normal(&rng, e->w, 2 * EXT_D * EXT_D, 0.0f, 0.1f);
    double first, last, acc[EXT_METHODS][3], far[EXT_METHODS];
    ext_train(e, &rng, &first, &last);
    report_section(r, "context extension");
    printf("find the earlier copy: one RoPE head, d = %d, %d token vectors,\n", EXT_D,
           EXT_V);
    printf("trained on %d sequences of length %d (base %d)\n",
           e->steps * EXT_BATCH, EXT_L, ROPE_BASE);
    printf("loss: %.3f over the first 20 steps, %.3f over the last 20\n", first, last);
    ext_table(e, seed, acc, far);
    ext_base_facts(r);
    report_check_true(r, "training lowered the loss", last < first / 2);
    report_check_true(r, "plain RoPE loses accuracy past its training length",
                      acc[EXT_PLAIN][2] < acc[EXT_PLAIN][0]);
    report_check_true(r, "plain at 4x: far copies are found less often than all",
                      far[EXT_PLAIN] < acc[EXT_PLAIN][2]);
    report_check_true(r, "at 4x interpolated and NTK-aware beat plain",
                      acc[EXT_PI][2] > acc[EXT_PLAIN][2] &&
                      acc[EXT_NTK][2] > acc[EXT_PLAIN][2]);
    report_check_true(r, "at length L the three methods are the same rotation",
                      acc[EXT_PLAIN][0] == acc[EXT_PI][0] &&
                      acc[EXT_PLAIN][0] == acc[EXT_NTK][0]);
    report_value(r, "ext_d", "%.0f", EXT_D);
    report_value(r, "ext_L", "%.0f", EXT_L);
    report_value(r, "ext_train_seqs", "%.0f", e->steps * EXT_BATCH);
    report_value(r, "ext_eval", "%.0f", e->eval);
    report_value(r, "ext_loss_first", "%.3f", first);
    report_value(r, "ext_loss_last", "%.3f", last);
    report_value(r, "ext_1x", "%.1f", acc[EXT_PLAIN][0]);
    const char *const key[EXT_METHODS] = {"plain", "pi", "ntk"};
    char k[32];
    for (int meth = 0; meth < EXT_METHODS; meth++) {
        snprintf(k, sizeof k, "ext_%s_far", key[meth]);
        report_value(r, k, "%.1f", far[meth]);
        for (int f = 1; f < 3; f++) {
            snprintf(k, sizeof k, "ext_%s_%dx", key[meth], 1 << f);
            report_value(r, k, "%.1f", acc[meth][f]);
        }
    }
    free(e->emb), free(e);
}

// ---------------------------------------------------------------------------
// ALiBi: slopes and bias matrices

static void write_bias(report_t *r, const char *name, const float *bias, int n) {
    FILE *f = report_data(r, name);
    for (int i = 0; f && i < n; i++) {   // future keys: 1 (the figure skips > 0)
        for (int j = 0; j < n; j++)
            fprintf(f, "%s%.4f", j ? " " : "", j <= i ? bias[i * n + j] : 1.0f);
        fprintf(f, "\n");
    }
    report_data_close(r, f);
}

static void section_alibi_slopes(report_t *r) {
    enum { N = 8 };
    float slopes[16], bias[N * N];
    report_section(r, "alibi slopes");
    alibi_slopes(slopes, HEADS);
    printf("H = %d heads: m_h = 2^(-8h/H)\n", HEADS);
    for (int h = 0; h < HEADS; h++) printf("  head %d: m = %.6f = 1/%.0f\n", h + 1,
                                           slopes[h], 1.0 / slopes[h]);
    double ratio_err = 0.0;
    for (int h = 1; h < HEADS; h++)
        ratio_err =
                fmax(ratio_err, fabs(slopes[h] / slopes[h - 1] - exp2(-8.0 / HEADS)));
    report_check(r, "first slope and ratio both 2^(-8/H)",
                 fmax(ratio_err, fabs(slopes[0] - exp2(-8.0 / HEADS))), 1e-6);
    alibi_slopes(slopes, 16);
    printf("H = 16: %.4f, %.4f, %.4f, ..., %.6f (ratio 2^(-1/2))\n", slopes[0],
           slopes[1], slopes[2], slopes[15]);
    alibi_slopes(slopes, HEADS);
    alibi_bias(bias, 6, slopes[0]);
    printf("\nbias of head 1 (m = 1/2), n = 6; '.' = future key, hidden:\n");
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++)
        {
            char buf[16];
            printf("%7s", j <= i ? report_fmt_fixed(buf, sizeof buf, bias[i * 6 + j], 2)
                                 : ".");
        }
        printf("\n");
    }
    static const int SHOWN[3] = {0, 3, 7};
    for (int t = 0; t < 3; t++) {
        char name[32];
        alibi_bias(bias, N, slopes[SHOWN[t]]);
        snprintf(name, sizeof name, "alibi_bias_h%d.dat", SHOWN[t] + 1);
        write_bias(r, name, bias, N);
    }
    report_value(r, "alibi_h", "%.0f", HEADS);
    report_value(r, "slope_1", "%.1f", slopes[0]);
    report_value(r, "slope_8", "%.6f", slopes[HEADS - 1]);
}

// ---------------------------------------------------------------------------
// ALiBi: longer than the length the slopes were chosen for

// Distance from the last query within which a share `frac` of its weight lies.
static int reach(const float *w_last, int n, double frac) {
    double s = 0.0;
    for (int dist = 0; dist < n; dist++) {
        s += w_last[n - 1 - dist];
        if (s >= frac) return dist;
    }
    return n - 1;
}

// Figure data: the last query's weight by distance, one column per head.
static void write_alibi_reach(report_t *r, const float *reach_w, int n) {
    FILE *f = report_data(r, "alibi_reach.dat");
    if (f)
        fprintf(f, "# distance, then the last query's weight for heads 1..%d\n", HEADS);
    for (int dist = 0; f && dist < n; dist++) {
        fprintf(f, "%d", dist);
        for (int h = 0; h < HEADS; h++)
            fprintf(f, " %.6e", reach_w[(size_t)h * n + dist]);
        fprintf(f, "\n");
    }
    report_data_close(r, f);
}

// Random content: head 1 (slope) at length n against the same query with only
// its last trunc keys; q, k, v (n, dk) are filled here.
static void alibi_truncation(report_t *r, float slope, int n, int dk, int trunc,
                             rng_t *rng) {
    float *q = xfloats(PROG, (size_t)n * dk), *k = xfloats(PROG, (size_t)n * dk);
    float *v = xfloats(PROG, (size_t)n * dk), *out = xfloats(PROG, (size_t)n * dk);
    float *w = xfloats(PROG, (size_t)n * n), *out2 = xfloats(PROG, (size_t)trunc * dk);
    float *w2 = xfloats(PROG, (size_t)trunc * trunc);
    rng_fill_normal(rng, q, n * dk, 0.0f, 1.0f);
    rng_fill_normal(rng, k, n * dk, 0.0f, 1.0f);
    rng_fill_normal(rng, v, n * dk, 0.0f, 1.0f);
    xok(PROG, alibi_attention(q, k, v, slope, out, w, n, dk, dk), "alibi_attention");
    size_t tail = (size_t)(n - trunc) * dk;
    xok(PROG, alibi_attention(q + tail, k + tail, v + tail, slope, out2, w2, trunc, dk,
                              dk), "alibi_attention");
    double diff = mat_max_abs_diff(out + (size_t)(n - 1) * dk,
                                   out2 + (size_t)(trunc - 1) * dk, dk);
    printf("\nrandom q, k, v (d_k = %d), head 1, last query:\n", dk);
    printf("all %d keys vs only the last %d keys: max |difference| %.1e\n", n, trunc,
           diff);
    report_check(r, "head 1 sees only its last 32 keys (max |difference|)", diff, 1e-4);
    report_value(r, "alibi_n", "%.0f", n);
    report_value(r, "alibi_trunc", "%.1e", diff);
    report_value(r, "alibi_window", "%.0f", trunc);
    free(q), free(k), free(v), free(out), free(w), free(out2), free(w2);
}

static void section_alibi_long(report_t *r, const config_t *cfg, rng_t *rng) {
    enum { DK = 16, TRUNC = 32 };
    int L = cfg->len, n = 16 * L;
    float slopes[HEADS];
    alibi_slopes(slopes, HEADS);
    float *zero = xfloats(PROG, (size_t)n * DK), *out = xfloats(PROG, (size_t)n * DK);
    float *w = xfloats(PROG, (size_t)n * n),
          *reach_w = xfloats(PROG, (size_t)HEADS * n);
    report_section(r, "alibi long");
    printf("no content (q = k = 0): weight of the last query, by distance\n");
    printf("%4s %10s %12s %14s %14s\n", "head", "slope", "w(dist 0)", "90% within",
           "mass beyond L");
    for (int h = 0; h < HEADS; h++) {
        double mass_far[2];
        int lens[2] = {L, n};
        for (int t = 0; t < 2; t++) {
            int rc = alibi_attention(zero, zero, zero, slopes[h], out, w, lens[t], DK,
                                     DK);
            xok(PROG, rc, "alibi_attention");
            const float *last = w + (size_t)(lens[t] - 1) * lens[t];
            mass_far[t] = 0.0;
            for (int dist = L; dist < lens[t]; dist++)
                mass_far[t] += last[lens[t] - 1 - dist];
            if (t == 1) {
                for (int dist = 0; dist < n; dist++)
                    reach_w[(size_t)h * n + dist] = last[n - 1 - dist];
                printf("%4d %10.6f %12.4f %14d %14.4f\n", h + 1, slopes[h], last[n - 1],
                       reach(last, n, 0.9), mass_far[1]);
                if (h == 0 || h == 3 || h == HEADS - 1) {   // quoted by the book
                    char key[32];
                    snprintf(key, sizeof key, "reach_h%d", h + 1);
                    report_value(r, key, "%.0f", reach(last, n, 0.9));
                    snprintf(key, sizeof key, "beyond_h%d", h + 1);
                    report_value(r, key, "%.4f", mass_far[1]);
                }
            }
        }
    }
    printf("(at n = L = %d no key is L or more away; above, n = 16 L = %d)\n", L, n);
    write_alibi_reach(r, reach_w, n);
    alibi_truncation(r, slopes[0], n, DK, TRUNC, rng);
    free(zero), free(out), free(w), free(reach_w);
}

// ---------------------------------------------------------------------------
// side by side

enum { M_SIN, M_LEARNED, M_REL, M_ROPE, M_ALIBI, N_METHODS };

// score(i, j) of method `meth` when every position holds the same token c:
// whatever changes with (i, j) comes from the positions alone.
typedef struct {
    int d;
    const float *c, *w_q, *w_k;   // (d,), (d, d), (d, d)
    const float *pe_sin, *pe_learned, *shaw_a;   // (len, d), (len, d), (2K+1, d)
    float slope;
    float *qi, *kj;               // (d,) scratch
} shift_t;

static double method_score(shift_t *s, int meth, int i, int j) {
    int d = s->d;
    float xi[512], xj[512];
    memcpy(xi, s->c, sizeof(float) * d);
    memcpy(xj, s->c, sizeof(float) * d);
    if (meth == M_SIN || meth == M_LEARNED) {   // added to the input
        const float *pe = meth == M_SIN ? s->pe_sin : s->pe_learned;
        mat_add(xi, pe + (size_t)i * d, d);
        mat_add(xj, pe + (size_t)j * d, d);
    }
    for (int t = 0; t < d; t++) {   // q = x W_Q, k = x W_K (row vectors)
        double a = 0.0, b = 0.0;
        for (int u = 0; u < d; u++)
            a += (double)xi[u] * s->w_q[u * d + t],
                    b += (double)xj[u] * s->w_k[u * d + t];
        s->qi[t] = (float)a, s->kj[t] = (float)b;
    }
    if (meth == M_REL) return shaw_score(s->qi, s->kj, s->shaw_a, i, j, d);
    if (meth == M_ROPE) {
        rope_apply(s->qi, 1, d, i, ROPE_BASE);
        rope_apply(s->kj, 1, d, j, ROPE_BASE);
    }
    double score = mat_dot(s->qi, s->kj, d) / sqrt(d);
    if (meth == M_ALIBI) score -= s->slope * (double)(i - j);   // keys j <= i
    return score;
}

// Does score(i, j) change when both positions move by the same shift? The
// largest change over i + shift < L, j <= i, per method: diff (N_METHODS,).
static void shift_changes(shift_t *s, int L, int shift, double *diff) {
    for (int meth = 0; meth < N_METHODS; meth++) {
        diff[meth] = 0.0;
        for (int i = 0; i + shift < L; i++)
            for (int j = 0; j <= i; j++)
                diff[meth] = fmax(diff[meth],
                                  fabs(method_score(s, meth, i + shift, j + shift) -
                                       method_score(s, meth, i, j)));
    }
}

// The comparison table, one row per method, and its values.
static void print_comparison(report_t *r, const double *shift_diff, const long *params,
                             char reach_txt[][24]) {
    static const char *const NAME[N_METHODS] = {"sinusoidal", "learned", "relative",
                                                "RoPE", "ALiBi"};
    static const char *const WHERE[N_METHODS] = {"added to x", "added to x",
                                                 "keys in scores", "turns q and k",
                                                 "bias on scores"};
    static const char *const KEY[N_METHODS] = {"sin", "learned", "rel", "rope",
                                               "alibi"};
    printf("%-11s %-15s %6s %13s %-9s %s\n", "method", "position", "params",
           "shift change", "kind", "position 2L");
    for (int meth = 0; meth < N_METHODS; meth++) {
        int relative = shift_diff[meth] <= 1e-5;
        printf("%-11s %-15s %6ld %13.1e %-9s %s\n", NAME[meth], WHERE[meth],
               params[meth], shift_diff[meth], relative ? "relative" : "absolute",
               reach_txt[meth]);
        char key[48];
        snprintf(key, sizeof key, "cmp_%s_shift", KEY[meth]);
        report_value(r, key, "%.1e", shift_diff[meth]);
        snprintf(key, sizeof key, "cmp_%s_params", KEY[meth]);
        report_value(r, key, "%.0f", (double)params[meth]);
    }
}

static void section_compare(report_t *r, const config_t *cfg, rng_t *rng) {
    int d = cfg->d, L = cfg->len;
    float *c = xfloats(PROG, (size_t)d), *w_q = xfloats(PROG, (size_t)d * d);
    float *w_k = xfloats(PROG, (size_t)d * d), *pe = xfloats(PROG, (size_t)L * d);
    float *a = xfloats(PROG, (size_t)(2 * SHAW_K + 1) * d);
    float *qi = xfloats(PROG, (size_t)d), *kj = xfloats(PROG, (size_t)d);
    learned_pe_t tab;
    xok(PROG, learned_pe_alloc(&tab, L, d), "learned_pe_alloc");
    rng_fill_normal(rng, c, d, 0.0f, 1.0f);
    float bound = sqrtf(6.0f / (2 * d));   // Xavier, as in chapter 3
    rng_fill_uniform(rng, w_q, d * d, -bound, bound);
    rng_fill_uniform(rng, w_k, d * d, -bound, bound);
    learned_pe_init(&tab, rng, 0.02f);
    rng_fill_normal(rng, a, (2 * SHAW_K + 1) * d, 0.0f, 0.02f);
    sinusoidal_table(pe, L, d, 0, SINUSOIDAL_BASE);
    float slopes[HEADS];
    alibi_slopes(slopes, HEADS);
    shift_t s = {d, c, w_q, w_k, pe, tab.table, a, slopes[0], qi, kj};

    double shift_diff[N_METHODS];
    int shift = L / 2;
    shift_changes(&s, L, shift, shift_diff);
    // Can it give position 2L (twice the training length)?
    int pos2 = 2 * L;
    float *row = xfloats(PROG, (size_t)d);
    int st_sin = sinusoidal_table(row, 1, d, pos2, SINUSOIDAL_BASE);
    int st_learned = learned_pe_lookup(&tab, &pos2, 1, row);
    int st_rope = rope_apply(row, 1, d, pos2, ROPE_BASE);
    long params[N_METHODS] = {0, (long)L * d, (long)(2 * SHAW_K + 1) * d, 0, 0};
    char reach_txt[N_METHODS][24];
    snprintf(reach_txt[M_SIN], 24, "status %d", st_sin);
    snprintf(reach_txt[M_LEARNED], 24, "status %d", st_learned);
    snprintf(reach_txt[M_REL], 24, "clipped to %d", SHAW_K);
    snprintf(reach_txt[M_ROPE], 24, "status %d", st_rope);
    snprintf(reach_txt[M_ALIBI], 24, "bias %.1f", -slopes[0] * pos2);

    report_section(r, "comparison");
    printf("d = %d, L = %d; the same token at every position; shift = %d\n", d, L,
           shift);
    print_comparison(r, shift_diff, params, reach_txt);
    printf("(relative: max |score(i+s, j+s) - score(i, j)| <= 1e-5)\n");
    report_check_true(r, "sinusoidal and learned scores depend on absolute position",
                      shift_diff[M_SIN] > 1e-3 && shift_diff[M_LEARNED] > 1e-5);
    report_check(r, "relative, RoPE and ALiBi: largest shift change",
                 fmax(shift_diff[M_REL], fmax(shift_diff[M_ROPE], shift_diff[M_ALIBI])),
                 1e-5);
    report_check_true(r, "only the learned table refuses position 2L",
                      st_sin == 0 && st_rope == 0 && st_learned != 0);
    report_value(r, "cmp_shift", "%.0f", shift);
    report_value(r, "cmp_pos2", "%.0f", pos2);
    report_value(r, "cmp_learned_status", "%.0f", st_learned);
    report_value(r, "cmp_alibi_bias2L", "%.1f", -slopes[0] * pos2);
    learned_pe_free(&tab);
    free(c), free(w_q), free(w_k), free(pe), free(a), free(qi), free(kj), free(row);
}

// The check across options: --d-model is even (RoPE turns pairs).
static int check_options(const cli_t *cli, char *why, size_t size) {
    long d_model = cli_int(cli, "--d-model");
    return cli_require(why, size, d_model % 2 == 0,
                       "--d-model %ld is odd (RoPE turns pairs)", d_model);
}

// Every section in the book's order, on one generator seeded with seed; the
// context experiment seeds its own (seed + 7).
static void run_sections(report_t *r, const config_t *cfg, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    section_permutation(r, &rng);
    section_table(r, cfg);
    section_unique(r, cfg);
    section_rotation(r, cfg);
    section_dot(r, cfg);
    section_extrapolation(r, cfg);
    section_learned(r, cfg, &rng);
    section_relative(r);
    section_rope_rotation(r, cfg, &rng);
    section_rope_relative(r, cfg, &rng);
    section_rope_decay(r);
    section_context(r, cfg, seed + 7);
    section_alibi_slopes(r);
    section_alibi_long(r, cfg, &rng);
    section_compare(r, cfg, &rng);
}

int main(int argc, char **argv) {
    long d_model = 64, seq_len = 16, ext_steps = 400, ext_eval = 300;
    const cli_opt_t opts[] = {
        {.name = "--d-model", .meta = "N", .help = "width of the encodings (even)",
         .kind = CLI_INT, .ival = &d_model, .min = 18, .max = 512},
        {.name = "--seq-len", .meta = "N",
         .help = "training length L: learned table size, ALiBi comparison",
         .kind = CLI_INT, .ival = &seq_len, .min = 4, .max = 64},
        {.name = "--context-steps", .meta = "N",
         .help = "training steps, context extension",
         .kind = CLI_INT, .ival = &ext_steps, .min = 40, .max = 4000},
        {.name = "--context-tests", .meta = "N",
         .help = "test sequences, context extension",
         .kind = CLI_INT, .ival = &ext_eval, .min = 30, .max = 3000},
    };
    cli_t cli = {.program = PROG,
                 .summary = "Chapter 7: positional encoding (sinusoidal, learned, "
                            "RoPE, ALiBi).",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 42,
                 .check = check_options};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);   // --help, bad options: exit
    if (rc >= 0) return rc;
    config_t cfg = {.d = (int)d_model, .len = (int)seq_len, .ext_steps = (int)ext_steps,
                    .ext_eval = (int)ext_eval};
    run_sections(&r, &cfg, cli.seed);
    return report_close(&r) == 0 ? 0 : 1;
}
