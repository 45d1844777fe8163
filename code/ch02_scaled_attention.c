// ch02_scaled_attention.c -- chapter 2: scaled dot-product attention.
//
// Walks through softmax(Q K^T / sqrt(d_k)) V: the four steps on a tiny example,
// stable softmax, why we divide by sqrt(d_k), temperature, geometry, entropy,
// the row-stochastic attention matrix and dropout on attention weights.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention/attention.h"
#include "attention/attn_stats.h"
#include "program/program.h"
#include "attention/dropout.h"
#include "attention/geometry.h"
#include "base/mat.h"
#include "program/report.h"
#include "base/rng.h"
#include "attention/softmax.h"
#include "attention/spectral.h"
#include "base/stats.h"
#include "program/xalloc.h"

static const char *PROG = "ch02_scaled_attention";

// ---------------------------------------------------------------------------
// printing helpers

// Print v in a field of width w with 4 decimals; inf and NaN print the same
// on every C library ("inf", "-inf", "nan").
static void put_num(double v, int w) {
    char buf[32];
    if (isnan(v))
        printf("%*s", w, "nan");
    else if (isinf(v))
        printf("%*s", w, v > 0 ? "inf" : "-inf");
    else
        printf("%*s", w, report_fmt_fixed(buf, sizeof buf, v, 4));
}

static void put_row(const float *x, int n, int w) {
    for (int i = 0; i < n; i++) put_num(x[i], w);
}

// Row and column labels "q1".."qn" (prefix 'q'), at most 8 of them.
typedef struct {
    char text[8][16];    // room for any int: no truncation at any -O
    const char *at[8];
} labels_t;

static void labels_init(labels_t *l, char prefix, int n) {
    for (int i = 0; i < n; i++) {
        snprintf(l->text[i], sizeof l->text[i], "%c%d", prefix, i + 1);
        l->at[i] = l->text[i];
    }
}

// Print "LABEL" and the sum of each row of a (n, m), with 4 decimals.
static void print_row_sums(const char *label, const float *a, int n, int m) {
    printf("%s", label);
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++) s += a[i * m + j];
        printf(" %.4f", s);
    }
    printf("\n");
}

// Mean over the rows of w (n, m) of the largest weight in the row.
static double mean_max_weight(const float *w, int n, int m) {
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += attn_max_weight(w + i * m, 1, m);
    return sum / n;
}

// ---------------------------------------------------------------------------
// 1. the four steps on a tiny example

enum { T_N = 3, T_M = 3, T_DK = 4, T_DV = 2 };

static const float TQ[T_N * T_DK] = {1, 0, 1, 0,  0, 1, 0, 1,  1, 1, 1, 1};
static const float TK[T_M * T_DK] = {1, 0, 1, 0,  0, 1, 0, 1,  1, 1, 0, 0};
static const float TV[T_M * T_DV] = {1, 0,  0, 1,  1, 1};

typedef struct {
    float scores[T_N * T_M], weights[T_N * T_M], out[T_N * T_DV];
    labels_t q, k, v;
} steps_t;

static const char *const DIMS[] = {"1", "2", "3", "4"};

// The four steps, all at once; the sections below print them one by one.
static void four_steps(steps_t *st) {
    labels_init(&st->q, 'q', T_N);
    labels_init(&st->k, 'k', T_M);
    labels_init(&st->v, 'v', T_M);
    float *scores = st->scores, *weights = st->weights, *out = st->out;
    // snippet: four_steps
    mat_mul_bt(TQ, TK, scores, T_N, T_DK, T_M);        // 1. scores  S = Q K^T
    memcpy(weights, scores, sizeof(float) * T_N * T_M);
    mat_scale(weights, T_N * T_M, 1.0f / sqrtf(T_DK));  // 2. scale   S / sqrt(d_k)
    softmax_rows(weights, T_N, T_M);                    // 3. softmax along each row
    attention_combine(weights, TV, out, T_N, T_M, T_DV); // 4. output  A V
    // end snippet
}

static void section_inputs(report_t *r, const steps_t *st) {
    report_section(r, "four steps: inputs");
    printf("Q (3 queries, d_k = 4)\n");
    report_print_matrix(TQ, T_N, T_DK, 6, 1, st->q.at, DIMS);
    printf("K (3 keys, d_k = 4)\n");
    report_print_matrix(TK, T_M, T_DK, 6, 1, st->k.at, DIMS);
    printf("V (3 values, d_v = 2)\n");
    report_print_matrix(TV, T_M, T_DV, 6, 1, st->v.at, DIMS);
}

static void section_step_scores(report_t *r, const steps_t *st) {
    report_section(r, "step 1: scores");
    printf("S = Q K^T (row = query, column = key)\n");
    report_print_matrix(st->scores, T_N, T_M, 8, 4, st->q.at, st->k.at);
    report_value(r, "ex_s11", "%.0f", st->scores[0]);
    report_value(r, "ex_s12", "%.0f", st->scores[1]);
    report_value(r, "ex_s13", "%.0f", st->scores[2]);
}

static void section_step_scale(report_t *r, const steps_t *st) {
    float scaled[T_N * T_M];
    memcpy(scaled, st->scores, sizeof scaled);
    mat_scale(scaled, T_N * T_M, 1.0f / sqrtf(T_DK));
    report_section(r, "step 2: scale");
    printf("S / sqrt(d_k) = S / %.4f\n", sqrt(T_DK));
    report_print_matrix(scaled, T_N, T_M, 8, 4, st->q.at, st->k.at);
    report_value(r, "ex_scale", "%.0f", sqrt(T_DK));
    report_value(r, "ex_c11", "%.1f", scaled[0]);
    report_value(r, "ex_c12", "%.1f", scaled[1]);
    report_value(r, "ex_c13", "%.1f", scaled[2]);
}

static void section_step_softmax(report_t *r, const steps_t *st) {
    report_section(r, "step 3: softmax");
    printf("A = softmax(S / sqrt(d_k)), row by row\n");
    report_print_matrix(st->weights, T_N, T_M, 8, 4, st->q.at, st->k.at);
    report_check(r, "largest |row sum - 1|", attn_row_sum_error(st->weights, T_N, T_M),
                 1e-6);
    report_value(r, "ex_a11", "%.4f", st->weights[0]);
    report_value(r, "ex_a12", "%.4f", st->weights[1]);
    report_value(r, "ex_a13", "%.4f", st->weights[2]);
    report_value(r, "ex_a31", "%.4f", st->weights[6]);
}

static void section_step_sum(report_t *r, const steps_t *st) {
    report_section(r, "step 4: weighted sum");
    printf("O = A V (one output row per query)\n");
    report_print_matrix(st->out, T_N, T_DV, 8, 4, st->q.at, DIMS);
    // The same through the library's one call.
    float out2[T_N * T_DV], w2[T_N * T_M];
    attention_forward(TQ, TK, TV, NULL, out2, w2, T_N, T_M, T_DK, T_DV);
    double diff = mat_max_abs_diff(out2, st->out, T_N * T_DV);
    report_check(r, "attention_forward() == the four steps, max |diff|", diff, 1e-6);
    report_value(r, "ex_o11", "%.4f", st->out[0]);
    report_value(r, "ex_o12", "%.4f", st->out[1]);
    report_value(r, "ex_o31", "%.4f", st->out[4]);
    report_value(r, "ex_diff", "%.2g", diff);
}

// The four steps on the tiny example: its inputs, then one section per step.
static void sections_four_steps(report_t *r, const steps_t *st) {
    section_inputs(r, st);
    section_step_scores(r, st);
    section_step_scale(r, st);
    section_step_softmax(r, st);
    section_step_sum(r, st);
}

// ---------------------------------------------------------------------------
// 2. naive vs stable softmax on large logits

static void section_huge_logits(report_t *r) {
    enum { ROWS = 7 };
    static const float logits[ROWS][3] = {
        {1, 2, 3},       {1001, 1002, 1003}, {-1001, -1000, -999},
        {86, 87, 88},    {87, 88, 89},       {10000, 0, -10000},
        {10000, 10000, 9999},
    };
    report_section(r, "huge logits");
    printf("%-20s %-24s %s\n", "logits x", "naive exp(x)/sum", "stable (x - max)");
    for (int i = 0; i < ROWS; i++) {
        float a[3], b[3];
        memcpy(a, logits[i], sizeof a);
        memcpy(b, logits[i], sizeof b);
        softmax_naive(a, 3);
        softmax(b, 3);
        for (int j = 0; j < 3; j++) printf("%7.0f", logits[i][j]);
        printf("  ");
        put_row(a, 3, 8);
        put_row(b, 3, 8);
        printf("\n");
        if (i == 1) report_text(r, "naive_1001", isnan(a[0]) ? "nan" : "a number");
        if (i == 5) report_value(r, "stable_1e4", "%.4f", b[0]);
    }
    printf("largest float: %.4e, so exp(x) overflows for x > ln(max) = %.4f\n",
           (double)FLT_MAX, log((double)FLT_MAX));
    report_value(r, "ln_flt_max", "%.2f", log((double)FLT_MAX));
    report_value(r, "flt_max", "%.1e", (double)FLT_MAX);
    float a[3] = {1, 2, 3};
    softmax(a, 3);
    report_value(r, "sm123_1", "%.4f", a[0]);
    report_value(r, "sm123_2", "%.4f", a[1]);
    report_value(r, "sm123_3", "%.4f", a[2]);
}

// ---------------------------------------------------------------------------
// 3. why divide by sqrt(d_k): score spread and softmax saturation

enum { N_DK = 11 };   // d_k = 1, 2, 4, ..., 1024

typedef struct {
    int d_k;
    stats_t raw, scaled;            // over all samples x samples scores
    double pmax_raw, pmax_scaled;   // mean over rows of the largest weight
    double jac_raw, jac_scaled;     // mean over rows of trace J = 1 - sum p^2
} spread_t;

// Mean over the rows of x (n, m), after softmax, of the largest weight and of
// 1 - sum_j p_j^2 (the trace of the softmax Jacobian diag(p) - p p^T).
static void saturation(float *x, int n, int m, double *pmax, double *jac) {
    softmax_rows(x, n, m);
    *pmax = mean_max_weight(x, n, m);
    *jac = 0.0;
    for (int i = 0; i < n; i++) *jac += 1.0 - mat_dot(x + i * m, x + i * m, m);
    *jac /= n;
}

static void section_score_spread(report_t *r, rng_t *rng, int samples, spread_t *res) {
    int n = samples;
    float *q = xfloats(PROG, (size_t)n * 1024), *k = xfloats(PROG, (size_t)n * 1024);
    float *raw = xfloats(PROG, (size_t)n * n), *scaled = xfloats(PROG, (size_t)n * n);
    // snippet: score_spread
    for (int e = 0; e < N_DK; e++) {
        int d_k = 1 << e;                               // 1, 2, 4, ..., 1024
        rng_fill_normal(rng, q, n * d_k, 0.0f, 1.0f);   // q_i ~ N(0, 1) per component
        rng_fill_normal(rng, k, n * d_k, 0.0f, 1.0f);   // k_i ~ N(0, 1) per component
        mat_mul_bt(q, k, raw, n, d_k, n);                // every q_i . k_j
        memcpy(scaled, raw, (size_t)n * n * sizeof *raw);
        mat_scale(scaled, n * n, 1.0f / sqrtf((float)d_k));
        res[e].raw = stats_of(raw, n * n);
        res[e].scaled = stats_of(scaled, n * n);
        res[e].d_k = d_k;
        saturation(raw, n, n, &res[e].pmax_raw, &res[e].jac_raw);       // used later
        saturation(scaled, n, n, &res[e].pmax_scaled, &res[e].jac_scaled);
    }
    // end snippet
    free(q), free(k), free(raw), free(scaled);

    report_section(r, "score spread");
    printf("%d queries x %d keys, components ~ N(0, 1)\n", n, n);
    printf("%5s | %8s %8s %8s | %9s | %7s %7s %7s\n", "", "raw q.k", "", "", "",
           "scaled", "", "");
    printf("%5s | %8s %8s %8s | %9s | %7s %7s %7s\n", "d_k", "mean", "std", "max",
           "sqrt(d_k)", "mean", "std", "max");
    for (int e = 2; e < N_DK; e += 2) {
        const spread_t *s = &res[e];
        printf("%5d | %8.3f %8.3f %8.3f | %9.3f | %7.3f %7.3f %7.3f\n", s->d_k,
               s->raw.mean, s->raw.std, s->raw.max, sqrt(s->d_k), s->scaled.mean,
               s->scaled.std, s->scaled.max);
    }
    report_value(r, "spread_n", "%.0f", n);
    report_value(r, "spread_pairs", "%.0f", (double)n * n);
    report_value(r, "raw_std_4", "%.3f", res[2].raw.std);
    report_value(r, "raw_std_1024", "%.3f", res[10].raw.std);
    report_value(r, "raw_max_1024", "%.1f", res[10].raw.max);
    report_value(r, "scaled_std_4", "%.3f", res[2].scaled.std);
    report_value(r, "scaled_std_1024", "%.3f", res[10].scaled.std);
    report_value(r, "scaled_max_1024", "%.2f", res[10].scaled.max);

    FILE *f = report_data(r, "spread.dat");
    if (f) {
        fprintf(f, "# d_k raw_mean raw_std raw_max "
                   "scaled_mean scaled_std scaled_max\n");
        for (int e = 0; e < N_DK; e++)
            fprintf(f, "%d %.6f %.6f %.6f %.6f %.6f %.6f\n", res[e].d_k,
                    res[e].raw.mean, res[e].raw.std, res[e].raw.max,
                    res[e].scaled.mean, res[e].scaled.std, res[e].scaled.max);
    }
    report_data_close(r, f);
}

static void section_saturation(report_t *r, const spread_t *res, int samples) {
    report_section(r, "saturation");
    printf("softmax over %d keys, mean over %d queries\n", samples, samples);
    printf("%5s | %18s | %18s\n", "", "largest weight", "trace J = 1-sum p^2");
    printf("%5s | %8s %9s | %8s %9s\n", "d_k", "raw", "scaled", "raw", "scaled");
    for (int e = 2; e < N_DK; e += 2)
        printf("%5d | %8.4f %9.4f | %8.4f %9.4f\n", res[e].d_k, res[e].pmax_raw,
               res[e].pmax_scaled, res[e].jac_raw, res[e].jac_scaled);
    report_value(r, "pmax_raw_4", "%.4f", res[2].pmax_raw);
    report_value(r, "pmax_raw_1024", "%.4f", res[10].pmax_raw);
    report_value(r, "pmax_scaled_1024", "%.4f", res[10].pmax_scaled);
    report_value(r, "jac_raw_1024", "%.4f", res[10].jac_raw);
    report_value(r, "jac_scaled_1024", "%.4f", res[10].jac_scaled);

    FILE *f = report_data(r, "saturation.dat");
    if (f) {
        fprintf(f, "# d_k pmax_raw pmax_scaled jac_raw jac_scaled\n");
        for (int e = 0; e < N_DK; e++)
            fprintf(f, "%d %.6f %.6f %.6f %.6f\n", res[e].d_k, res[e].pmax_raw,
                    res[e].pmax_scaled, res[e].jac_raw, res[e].jac_scaled);
    }
    report_data_close(r, f);
}

static void section_jacobian(report_t *r) {
    report_section(r, "jacobian");
    static const float base[3] = {1, 2, 3};
    for (int c = 0; c < 2; c++) {
        float x = c == 0 ? 1.0f : 10.0f;
        float p[3], jac[9];
        for (int j = 0; j < 3; j++) p[j] = base[j] * x;
        softmax(p, 3);
        softmax_jacobian(p, jac, 3);
        printf("x = (%.0f, %.0f, %.0f)   p =", base[0] * x, base[1] * x, base[2] * x);
        put_row(p, 3, 8);
        printf("\nJ = dp/dx:\n");
        report_print_matrix(jac, 3, 3, 10, 4, NULL, NULL);
        double tr = jac[0] + jac[4] + jac[8];
        printf("trace J = %.4f\n", tr);
        if (c == 0) printf("\n");
        report_value(r, c == 0 ? "jac_trace_1" : "jac_trace_10", "%.4f", tr);
    }
}

// ---------------------------------------------------------------------------
// 4. the running example: 6 queries, 6 keys, d_k = 8

enum { R_N = 6, R_DK = 8 };

typedef struct {
    float q[R_N * R_DK], k[R_N * R_DK];   // keys are noisy copies of the queries
    float scores[R_N * R_N];              // q k^T / sqrt(d_k)
    float w[R_N * R_N];                   // softmax of each row of scores
    labels_t ql, kl;                      // "q1".."q6", "k1".."k6"
} running_t;

static void section_running(report_t *r, rng_t *rng, running_t *ex) {
    rng_fill_normal(rng, ex->q, R_N * R_DK, 0.0f, 1.0f);
    rng_fill_normal(rng, ex->k, R_N * R_DK, 0.0f, 1.0f);
    mat_add(ex->k, ex->q, R_N * R_DK);                 // k_i = q_i + noise
    attention_scores(ex->q, ex->k, ex->scores, R_N, R_N, R_DK);
    memcpy(ex->w, ex->scores, sizeof ex->w);
    softmax_rows(ex->w, R_N, R_N);

    labels_init(&ex->ql, 'q', R_N);
    labels_init(&ex->kl, 'k', R_N);
    report_section(r, "running example");
    printf("6 queries, 6 keys, d_k = 8; key i = query i + N(0, 1) noise\n");
    printf("scaled scores S = Q K^T / sqrt(8):\n");
    report_print_matrix(ex->scores, R_N, R_N, 8, 3, ex->ql.at, ex->kl.at);
    report_value(r, "run_ln_n", "%.4f", log((double)R_N));
}

// w <- softmax(S / T) of the running example; its mean entropy and mean
// largest weight over the queries.
static void at_temperature(const running_t *ex, float t, float *w, double *h,
                           double *pmax) {
    memcpy(w, ex->scores, sizeof ex->scores);
    softmax_rows_temp(w, R_N, R_N, t);
    *h = attn_mean_entropy(w, R_N, R_N);
    *pmax = mean_max_weight(w, R_N, R_N);
}

static void section_temperature(report_t *r, const running_t *ex) {
    static const float temps[] = {0.1f, 0.5f, 1.0f, 2.0f, 5.0f};
    static const char *keys[] = {"t01", "t05", "t1", "t2", "t5"};
    float w[R_N * R_N];
    double h, pmax;
    report_section(r, "temperature");
    printf("softmax(S / T); p = weights of query q1, H and max = means over queries\n");
    printf("%4s |%42s | %6s %7s %6s\n", "T", "p(q1)", "H", "exp(H)", "max p");
    FILE *f = report_data(r, "temperature_points.dat");
    if (f) fprintf(f, "# T mean_entropy mean_max_prob (the five printed ones)\n");
    for (int t = 0; t < 5; t++) {
        at_temperature(ex, temps[t], w, &h, &pmax);
        printf("%4.1f |", temps[t]);
        put_row(w, R_N, 7);
        printf(" | %6.4f %7.4f %6.4f\n", h, exp(h), pmax);
        if (f) fprintf(f, "%.6f %.6f %.6f\n", temps[t], h, pmax);
        if (t != 0 && t != 4) continue;   // the prose quotes the extremes
        char key[32];
        snprintf(key, sizeof key, "H_%s", keys[t]);
        report_value(r, key, "%.4f", h);
        snprintf(key, sizeof key, "pmax_%s", keys[t]);
        report_value(r, key, "%.4f", pmax);
    }
    report_data_close(r, f);

    f = report_data(r, "temperature.dat");
    if (f) {
        fprintf(f, "# T mean_entropy mean_max_prob\n");
        for (int s = 0; s <= 80; s++) {
            float t = (float)pow(10.0, -1.5 + 3.0 * s / 80.0);   // 0.03 .. 30
            at_temperature(ex, t, w, &h, &pmax);
            fprintf(f, "%.6f %.6f %.6f\n", t, h, pmax);
        }
    }
    report_data_close(r, f);
}

// ---------------------------------------------------------------------------
// 5. geometry: lengths and angles

static void section_geometry(report_t *r, const running_t *ex) {
    float nq[R_N], nk[R_N], cosm[R_N * R_N];
    geom_row_norms(ex->q, nq, R_N, R_DK);
    geom_row_norms(ex->k, nk, R_N, R_DK);
    geom_cosine_matrix(ex->q, ex->k, cosm, R_N, R_N, R_DK);

    const char *const *ql = ex->ql.at, *const *kl = ex->kl.at;
    report_section(r, "geometry");
    printf("|q_i|:");
    put_row(nq, R_N, 8);
    printf("\n|k_i|:");
    put_row(nk, R_N, 8);
    printf("\ncos(theta_ij) between q_i and k_j:\n");
    report_print_matrix(cosm, R_N, R_N, 8, 3, ql, kl);
    // Rebuild one score from its parts: q.k / sqrt(d_k) = |q| |k| cos / sqrt(d_k).
    double rebuilt = (double)nq[0] * nk[0] * cosm[0] / sqrt((double)R_DK);
    printf("q1.k1 / sqrt(8) = %.4f;  |q1| |k1| cos(theta_11) / sqrt(8) = %.4f\n",
           ex->scores[0], rebuilt);
    printf("angle(q1, k1) = %.2f degrees\n", geom_angle_degrees(cosm[0]));
    report_value(r, "geo_cos11", "%.3f", cosm[0]);
    report_value(r, "geo_angle11", "%.1f", geom_angle_degrees(cosm[0]));
    report_value(r, "geo_score11", "%.4f", ex->scores[0]);
    report_value(r, "geo_nq1", "%.4f", nq[0]);
    report_value(r, "geo_nk1", "%.4f", nk[0]);
    int longest = 0;
    for (int j = 1; j < R_N; j++)
        if (nk[j] > nk[longest]) longest = j;
    report_text(r, "geo_longest_k", kl[longest]);
    report_value(r, "geo_longest_len", "%.4f", nk[longest]);
}

static void section_angles(report_t *r, rng_t *rng, int samples) {
    static const int dims[] = {4, 16, 64, 256, 1024};
    enum { N_DIMS = 5, BINS = 90 };
    int n = samples, hist[N_DIMS][BINS];
    float *q = xfloats(PROG, (size_t)n * 1024), *k = xfloats(PROG, (size_t)n * 1024);
    float *c = xfloats(PROG, (size_t)n * n), *nq = xfloats(PROG, (size_t)n);
    report_section(r, "angles");
    printf("%d random q and %d random k, components ~ N(0, 1)\n", n, n);
    printf("%5s %9s %9s | %10s %10s %12s\n", "d_k", "mean |q|", "sqrt(d_k)",
           "mean angle", "std angle", "57.3/sqrt(d)");
    for (int e = 0; e < N_DIMS; e++) {
        int d = dims[e];
        rng_fill_normal(rng, q, n * d, 0.0f, 1.0f);
        rng_fill_normal(rng, k, n * d, 0.0f, 1.0f);
        geom_cosine_matrix(q, k, c, n, n, d);
        for (int i = 0; i < n * n; i++) c[i] = (float)geom_angle_degrees(c[i]);
        stats_histogram(c, n * n, 0.0, 180.0, BINS, hist[e]);
        geom_row_norms(q, nq, n, d);
        stats_t sn = stats_of(nq, n), sa = stats_of(c, n * n);
        double pred = 180.0 / 3.14159265358979323846 / sqrt(d);   // 1/sqrt(d) rad
        printf("%5d %9.3f %9.3f | %10.2f %10.2f %12.2f\n", d, sn.mean, sqrt(d), sa.mean,
               sa.std, pred);
        if (d == 1024) {
            report_value(r, "angle_std_1024", "%.2f", sa.std);
            report_value(r, "angle_pred_1024", "%.2f", pred);
        }
    }
    FILE *f = report_data(r, "angles.dat");
    if (f) {
        fprintf(f, "# angle_deg, then fraction of pairs per degree for d_k = 4 16 64 "
                   "256 1024\n");
        double width = 180.0 / BINS;
        for (int b = 0; b < BINS; b++) {
            fprintf(f, "%.2f", (b + 0.5) * width);
            for (int e = 0; e < N_DIMS; e++)
                fprintf(f, " %.6f", hist[e][b] / ((double)n * n * width));
            fprintf(f, "\n");
        }
    }
    report_data_close(r, f);
    free(q), free(k), free(c), free(nq);
}

// ---------------------------------------------------------------------------
// 6. information view: entropy per query

static void section_weights(report_t *r, const running_t *ex) {
    report_section(r, "attention weights");
    report_print_matrix(ex->w, R_N, R_N, 8, 4, ex->ql.at, ex->kl.at);
    FILE *f = report_data(r, "heatmap.dat");
    report_write_matrix(f, ex->w, R_N, R_N, ex->ql.at, ex->kl.at);
    report_data_close(r, f);
}

static void section_entropy(report_t *r, const running_t *ex) {
    const char *const *ql = ex->ql.at;
    report_section(r, "entropy");
    printf("%5s %10s %14s %12s\n", "query", "H (nats)", "exp(H) (keys)", "max weight");
    double lo = 1e9, hi = -1e9;
    int ilo = 0, ihi = 0;
    for (int i = 0; i < R_N; i++) {
        // snippet: effective_range
        double h = attn_row_entropy(ex->w + i * R_N, R_N);   // 0 <= H <= ln m
        double range = exp(h);                          // 1 <= e^H <= m keys
        // end snippet
        printf("%5s %10.4f %14.4f %12.4f\n", ql[i], h, range,
               attn_max_weight(ex->w + i * R_N, 1, R_N));
        if (h < lo) lo = h, ilo = i;
        if (h > hi) hi = h, ihi = i;
    }
    double mh = attn_mean_entropy(ex->w, R_N, R_N);
    printf("mean H = %.4f, bounds 0 (one key) .. ln 6 = %.4f (uniform)\n", mh,
           log((double)R_N));
    report_value(r, "H_mean", "%.4f", mh);
    report_value(r, "H_low", "%.4f", lo);
    report_value(r, "H_low_range", "%.2f", exp(lo));
    report_text(r, "H_low_q", ql[ilo]);
    report_value(r, "H_low_max", "%.4f", attn_max_weight(ex->w + ilo * R_N, 1, R_N));
    report_value(r, "H_high_range", "%.2f", exp(hi));
    report_text(r, "H_high_q", ql[ihi]);
}

// ---------------------------------------------------------------------------
// 7. the attention matrix is row-stochastic

// Many random row-stochastic matrices (softmax of random scores): the largest
// |lambda - 1| the power iteration finds (infinity if one does not converge).
enum { TRIALS = 200, M = 16 };

static double random_lambda_error(rng_t *rng) {
    double worst = 0.0;
    for (int t = 0; t < TRIALS; t++) {
        float a[M * M];
        double x[M];
        rng_fill_normal(rng, a, M * M, 0.0f, 2.0f);
        softmax_rows(a, M, M);
        for (int i = 0; i < M; i++) x[i] = 1.0;
        double lam;
        int it = spectral_power_iteration(a, M, 1, x, 100000, 1e-10, &lam);
        if (fabs(lam - 1.0) > worst) worst = fabs(lam - 1.0);
        if (it < 0) worst = INFINITY;                  // did not converge
    }
    return worst;
}

static void section_row_stochastic(report_t *r, rng_t *rng, const running_t *ex) {
    report_section(r, "row-stochastic");
    double wmin = attn_min_weight(ex->w, R_N, R_N);
    double err = attn_row_sum_error(ex->w, R_N, R_N);
    char label[80];
    snprintf(label, sizeof label, "smallest weight %.4e >= 0", wmin);
    report_check_true(r, label, wmin >= 0.0);
    report_check(r, "max |row sum - 1|", err, 1e-6);

    // snippet: perron
    double right[R_N], left[R_N], lam_r, lam_l;
    for (int i = 0; i < R_N; i++) right[i] = left[i] = 1.0 + i;   // any positive start
    // right: A x = lambda x;  left: x A = lambda x.  Stop when the unit vector
    // moves less than 1e-10 in one step (or after 100000 steps).
    int it_r = spectral_power_iteration(ex->w, R_N, 0, right, 100000, 1e-10, &lam_r);
    int it_l = spectral_power_iteration(ex->w, R_N, 1, left, 100000, 1e-10, &lam_l);
    // end snippet

    printf("power iteration, A x = lambda x:  lambda = %.6f after %d steps\n", lam_r,
           it_r);
    printf("  x / x_1 =");
    for (int i = 0; i < R_N; i++) printf(" %.4f", right[i] / right[0]);
    printf("\npower iteration, x A = lambda x:  lambda = %.6f after %d steps\n", lam_l,
           it_l);
    double s = 0.0;
    for (int i = 0; i < R_N; i++) s += left[i];
    printf("  pi = x / sum(x) =");
    for (int i = 0; i < R_N; i++) printf(" %.4f", left[i] / s);
    printf("\n");
    double row_max = spectral_max_abs_row_sum(ex->w, R_N);
    snprintf(label, sizeof label, "spectral radius %.6f <= largest row sum %.6f",
             fabs(lam_r), row_max);
    report_check_true(r, label, fabs(lam_r) <= row_max + 1e-9);
    double diag = attn_diag_strength(ex->w, R_N);
    printf("diagonal strength (mean A_ii) %.4f; uniform would be 1/6 = %.4f\n", diag,
           1.0 / R_N);

    double worst = random_lambda_error(rng);
    snprintf(label, sizeof label, "%d random %dx%d matrices, max |lambda - 1|", TRIALS,
             M, M);
    report_check(r, label, worst, 1e-6);

    report_value(r, "rs_min", "%.1e", wmin);
    report_value(r, "rs_err", "%.1e", err);
    report_value(r, "rs_lambda", "%.6f", lam_r);
    report_value(r, "rs_iters_right", "%.0f", it_r);
    report_value(r, "rs_iters_left", "%.0f", it_l);
    report_value(r, "rs_diag", "%.4f", diag);
    report_value(r, "rs_uniform", "%.4f", 1.0 / R_N);
    report_value(r, "rs_trials", "%.0f", TRIALS);
    report_value(r, "rs_trial_size", "%.0f", M);
    report_value(r, "rs_worst", "%.1e", worst);
    int top = 0;
    for (int i = 1; i < R_N; i++)
        if (left[i] > left[top]) top = i;
    char key[16];
    snprintf(key, sizeof key, "k%d", top + 1);
    report_text(r, "rs_pi_top", key);
    report_value(r, "rs_pi_top_val", "%.4f", left[top] / s);
}

// ---------------------------------------------------------------------------
// 8. dropout on the attention weights

static void section_dropout(report_t *r, rng_t *rng, const running_t *ex, float p,
                         int draws) {
    const char *const *ql = ex->ql.at, *const *kl = ex->kl.at;

    float d[R_N * R_N];
    unsigned char keep[R_N * R_N];
    dropout_forward(ex->w, d, keep, R_N * R_N, p, rng);
    int dropped = 0;
    for (int i = 0; i < R_N * R_N; i++) dropped += !keep[i];

    report_section(r, "dropout");
    printf("p = %.2f: %d of %d weights dropped, survivors x 1/(1-p) = %.4f\n", p,
           dropped, R_N * R_N, 1.0 / (1.0 - p));
    report_print_matrix(d, R_N, R_N, 8, 4, ql, kl);
    print_row_sums("row sums:", d, R_N, R_N);

    // snippet: dropout_mean
    double mean[R_N * R_N] = {0};
    for (int t = 0; t < draws; t++) {                 // average many dropout masks
        dropout_forward(ex->w, d, NULL, R_N * R_N, p, rng);
        for (int i = 0; i < R_N * R_N; i++) mean[i] += (double)d[i] / draws;
    }
    // end snippet
    double worst = 0.0, worst_sum = 0.0;
    for (int i = 0; i < R_N; i++) {
        double s = 0.0;
        for (int j = 0; j < R_N; j++) {
            double e = fabs(mean[i * R_N + j] - ex->w[i * R_N + j]);
            if (e > worst) worst = e;
            s += mean[i * R_N + j];
        }
        if (fabs(s - 1.0) > worst_sum) worst_sum = fabs(s - 1.0);
    }
    // One draw of entry w has standard deviation w sqrt(p / (1 - p)); the mean of
    // `draws` draws, sqrt(draws) times less. Largest for the largest w.
    double se = attn_max_weight(ex->w, R_N, R_N) * sqrt(p / (1.0 - p) / draws);
    printf("mean of %d dropout masks:\n", draws);
    printf("  max |E[dropout(A)] - A| = %.4f   (one standard error: %.4f)\n", worst,
           se);
    printf("  max |row sum - 1|       = %.4f\n", worst_sum);
    report_check_true(r, "max |E[dropout(A)] - A| within 5 standard errors",
                      worst <= 5.0 * se + 1e-12);

    report_value(r, "drop_p", "%.2f", p);
    report_value(r, "drop_scale", "%.4f", 1.0 / (1.0 - p));
    report_value(r, "drop_count", "%.0f", dropped);
    report_value(r, "drop_total", "%.0f", R_N * R_N);
    report_value(r, "drop_draws", "%.0f", draws);
    report_value(r, "drop_err", "%.4f", worst);
    report_value(r, "drop_sum_err", "%.4f", worst_sum);
    report_value(r, "drop_se", "%.4f", se);
    report_value(r, "drop_err_se", "%.1f", se > 0.0 ? worst / se : 0.0);

    FILE *f = report_data(r, "dropout.dat");
    float shown[R_N * R_N];
    for (int i = 0; i < R_N * R_N; i++)
        shown[i] = keep[i] ? ex->w[i] / (1.0f - p) : 0.0f;
    report_write_matrix(f, shown, R_N, R_N, ql, kl);
    report_data_close(r, f);
}

// ---------------------------------------------------------------------------

int main(int argc, char **argv) {
    long samples = 200, draws = 10000;
    double p = 0.2;
    const cli_opt_t opts[] = {
        {.name = "--samples", .meta = "N", .help = "random q and k per experiment",
         .kind = CLI_INT, .ival = &samples, .min = 2, .max = 2000},
        {.name = "--dropout", .meta = "P", .help = "dropout probability",
         .kind = CLI_REAL, .rval = &p, .min = 0.0, .max = 0.9},
        {.name = "--draws", .meta = "N", .help = "dropout masks to average",
         .kind = CLI_INT, .ival = &draws, .min = 1, .max = 100000},
    };
    cli_t cli = {.program = PROG,
                 .summary = "Chapter 2: scaled dot-product attention, step by step.",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 2};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);   // --help, bad options: exit
    if (rc >= 0) return rc;
    rng_t rng;
    rng_seed(&rng, cli.seed);
    spread_t res[N_DK];   // score statistics per d_k, shared by two sections
    running_t ex;         // the 6 x 6 running example, set up by its section
    steps_t st;           // the four steps on a tiny example
    four_steps(&st);
    sections_four_steps(&r, &st);
    section_huge_logits(&r);
    section_score_spread(&r, &rng, (int)samples, res);
    section_saturation(&r, res, (int)samples);
    section_jacobian(&r);
    section_running(&r, &rng, &ex);
    section_temperature(&r, &ex);
    section_geometry(&r, &ex);
    section_angles(&r, &rng, (int)samples);
    section_weights(&r, &ex);
    section_entropy(&r, &ex);
    section_row_stochastic(&r, &rng, &ex);
    section_dropout(&r, &rng, &ex, (float)p, (int)draws);
    return report_close(&r) == 0 ? 0 : 1;
}
