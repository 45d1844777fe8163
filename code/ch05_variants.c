// ch05_variants.c -- chapter 5: attention variants, and what each one costs.
//
// Relative-position attention (clipped offsets, key and value embeddings);
// sparse attention (local window + strided pattern) as a masked dense matrix
// and as a kernel that only computes the visible entries; local (banded) and
// hard (argmax) attention; linear attention (elu + 1 features), its reordering,
// its causal running-sum form and its error against softmax attention; exact
// attention over key blocks with the online softmax. Then the cost of every
// variant against the sequence length: multiply-adds and bytes counted exactly
// (deterministic), and wall-clock time measured on this machine (the only
// section, "measured ...", and data files, measured_*.dat, that vary by run).
//
// Test args: --max-dense 64 --max-n 256 --max-reach 1024

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mat.h"
#include "base/rng.h"
#include "program/cli.h"
#include "program/clock.h"
#include "program/program.h"
#include "program/report.h"
#include "program/xalloc.h"
#include "attention/attention.h"
#include "attention/attn_stats.h"
#include "attention/softmax.h"
#include "variants/hard.h"
#include "variants/linear_attention.h"
#include "variants/online.h"
#include "variants/relative.h"
#include "variants/sparse.h"
#include "masks/mask.h"
#include "fast/flash_backward.h"
#include "fast/tiled.h"

static const char *PROG = "ch05_variants";

// Fixed sizes of the small examples the book quotes.
enum { REL_N = 8, REL_K = 3, REL_D = 4 }; // relative distances / attention
enum { SP_N = 32, SP_W = 2, SP_S = 8 }; // the sparse pattern picture
enum { LOC_N = 8, LOC_W = 1, LOC_D = 4 }; // local attention
enum { HARD_N = 4, HARD_D = 4 }; // hard attention
enum { LIN_N = 64, LIN_D = 16 }; // linear vs softmax attention
enum { EQ_N = 200, EQ_D = 32 }; // equality checks at scale
enum { SWEEP_LO = 16, SWEEP_HI = 8192 }; // n of the cost sweep
enum { DENSITY_N = 512 }; // the density sweep
enum { ONLINE_BLOCK = 64, SWEEP_WINDOW = 16, SWEEP_REL_K = 16 };

// The variants of the cost comparison, in the order of the tables.
enum {
    V_STANDARD,
    V_MASKED,
    V_SPARSE,
    V_LOCAL,
    V_LINEAR,
    V_CAUSAL,
    V_ONLINE,
    V_RELATIVE,
    V_HARD,
    N_VARIANTS
};
static const char *const VNAME[N_VARIANTS] = {"standard", "masked",   "sparse",
                                              "local",    "linear",   "lin-causal",
                                              "online",   "relative", "hard"};
static const char *const VKEY[N_VARIANTS] = {
    "standard", "masked", "sparse", "local", "linear", "causal", "online", "relative",
    "hard"};
static const char *const VLONG[N_VARIANTS] = {
    "standard softmax(QK^T/sqrt(d))V, weights kept",
    "sparse pattern as a mask on the dense matrix",
    "sparse kernel: visible entries only",
    "local band |i - j| <= 16, sparse kernel",
    "linear attention phi(Q)(phi(K)^T V)",
    "causal linear attention, running sums",
    "online softmax over key blocks of 64",
    "relative position, k_max 16, a_K and a_V",
    "hard attention (argmax)"};

// ---------------------------------------------------------------------------
// small helpers

static void fill_normal(rng_t *rng, float *x, long count, float std) {
    for (long e = 0; e < count; e++) x[e] = std * rng_normal(rng);
}

static float *normal_floats(rng_t *rng, long count, float std) {
    float *x = xfloats(PROG, (size_t)count);
    fill_normal(rng, x, count, std);
    return x;
}

// Stride of the sweep's strided part: the integer nearest sqrt(n), as Child et
// al. choose it.
static int sweep_stride(int n) {
    int s = (int)lround(sqrt((double)n));
    return s > 0 ? s : 1;
}

// Window of the sweep's sparse pattern: the stride itself, as in Child et al.'s
// strided pattern, so that a row sees about 4 sqrt(n) keys and every key is two
// steps away. The local variant keeps the fixed SWEEP_WINDOW.
static int sweep_window(int variant, int n) {
    return variant == V_LOCAL ? SWEEP_WINDOW : sweep_stride(n);
}

static void print_mask(const unsigned char *mask, int n, int m) {
    for (int i = 0; i < n; i++) {
        printf("  ");
        for (int j = 0; j < m; j++) printf("%c", mask[(long)i * m + j] ? '#' : '.');
        printf("\n");
    }
}

static void write_mask(report_t *r, const char *name, const unsigned char *mask,
                       int n) {
    FILE *f = report_data(r, name);
    if (!f) return;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= n; j++)
            fprintf(f, j < n ? "%d " : "\n", j < n ? mask[i * n + j] : 0);
    report_data_close(r, f);
}

// ---------------------------------------------------------------------------
// relative distances

static void section_distances(report_t *r) {
    int idx[REL_N * REL_N];
    relpos_index(idx, REL_N, REL_N, REL_K);
    report_section(r, "relative distances");
    printf(
        "n = %d tokens, k_max = %d: clip(j - i, -%d, %d) (row i = query, "
        "column j = key)\n",
        REL_N, REL_K, REL_K, REL_K);
    printf("    j:");
    for (int j = 0; j < REL_N; j++) printf("%4d", j);
    printf("\n");
    for (int i = 0; i < REL_N; i++) {
        printf("  i=%d ", i);
        for (int j = 0; j < REL_N; j++) printf("%4d", idx[i * REL_N + j] - REL_K);
        printf("\n");
    }
    printf("table rows used: %d (= 2 k_max + 1), for any sequence length\n",
           2 * REL_K + 1);
    report_value(r, "rel_n", "%.0f", REL_N);
    report_value(r, "rel_k", "%.0f", REL_K);
    report_value(r, "rel_rows", "%.0f", 2 * REL_K + 1);
    FILE *f = report_data(r, "distance.dat");
    if (f) {
        for (int i = 0; i < REL_N; i++)
            for (int j = 0; j <= REL_N; j++)
                fprintf(f, j < REL_N ? "%d " : "\n",
                        j < REL_N ? idx[i * REL_N + j] - REL_K : 0);
        report_data_close(r, f);
    }
}

// ---------------------------------------------------------------------------
// relative attention: the same token at every position

// Largest difference between score[i][j] and score[i'][j'] with the same
// clipped offset: 0 when the scores depend on the offset only.
static double toeplitz_error(const float *s, int n, int k_max) {
    int idx[REL_N * REL_N];
    relpos_index(idx, n, n, k_max);
    double worst = 0.0;
    for (int a = 0; a < n * n; a++)
        for (int b = 0; b < n * n; b++)
            if (idx[a] == idx[b] && fabs((double)s[a] - s[b]) > worst)
                worst = fabs((double)s[a] - s[b]);
    return worst;
}

static void section_relative(report_t *r, rng_t *rng) {
    enum { N = REL_N, D = REL_D, K = REL_K, ROWS = 2 * REL_K + 1 };
    float x[D], q[N * D], k[N * D], v[N * D], out[N * D], w[N * N], w0[N * N];
    float ek[ROWS * D], ev[ROWS * D], zero[ROWS * D] = {0}, sc[N * N];
    fill_normal(rng, x, D, 1.0f);
    for (int i = 0; i < N; i++) // the same token everywhere: q = k = v = x
        for (int c = 0; c < D; c++) q[i * D + c] = k[i * D + c] = v[i * D + c] = x[c];
    fill_normal(rng, ek, ROWS * D, 1.0f);
    fill_normal(rng, ev, ROWS * D, 0.5f);
    attention_forward(q, k, v, NULL, out, w0, N, N, D, D);
    const relpos_t rel = {.emb_k = ek, .emb_v = ev, .k_max = K, .d_k = D, .d_v = D};
    relpos_forward(q, k, v, &rel, NULL, out, w, N, N);
    // the scores before the softmax: run again with the weights left raw
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int o = j - i < -K ? -K : (j - i > K ? K : j - i);
            double s = 0.0;
            for (int c = 0; c < D; c++)
                s += (double)x[c] * (x[c] + ek[(o + K) * D + c]);
            sc[i * N + j] = (float)(s / sqrt((double)D));
        }
    double uni = 0.0;
    for (int e = 0; e < N * N; e++) uni = fmax(uni, fabs(w0[e] - 1.0 / N));

    report_section(r, "relative attention");
    printf("one token x (d = %d) at all %d positions; a_K, a_V: %d x %d tables\n", D, N,
           ROWS, D);
    report_check(r, "standard attention: every weight is 1/8", uni, 1e-6);
    printf("relative scores x . (x + a_K(j - i)) / sqrt(d):\n");
    report_print_matrix(sc, N, N, 7, 2, NULL, NULL);
    report_check(r, "scores depend only on clip(j - i)", toeplitz_error(sc, N, K), 0.0);
    printf("relative weights (rows sum to 1):\n");
    report_print_matrix(w, N, N, 7, 3, NULL, NULL);
    // zero embeddings: relative attention is standard attention
    float q2[N * D], o1[N * D], o2[N * D];
    fill_normal(rng, q2, N * D, 1.0f);
    const relpos_t zero_rel = {.emb_k = zero, .emb_v = zero, .k_max = K, .d_k = D,
                               .d_v = D};
    relpos_forward(q2, k, v, &zero_rel, NULL, o1, w, N, N);
    attention_forward(q2, k, v, NULL, o2, w0, N, N, D, D);
    report_check(r, "zero tables: relative == standard attention",
                 mat_max_abs_diff(o1, o2, N * D), 1e-6);
    report_value(r, "rel_params", "%.0f", 2.0 * ROWS * D);
}

// ---------------------------------------------------------------------------
// the sparse pattern

static double pattern_density(const sparse_pattern_t *p) {
    return (double)p->nnz / ((double)p->n * p->m);
}

static void section_sparse_pattern(report_t *r) {
    sparse_pattern_t loc, str, both;
    xok(PROG, sparse_build(&loc, SP_N, SP_W, 0, 0), "sparse_build");
    xok(PROG, sparse_build(&str, SP_N, -1, SP_S, 0), "sparse_build");
    xok(PROG, sparse_build(&both, SP_N, SP_W, SP_S, 0), "sparse_build");
    unsigned char *mask = xmalloc(PROG, SP_N * SP_N);
    report_section(r, "sparse pattern");
    printf("n = %d; local window |i - j| <= %d; strided (i - j) mod %d == 0\n", SP_N,
           SP_W, SP_S);
    printf("first 16 rows and columns of the joined pattern (# = visible):\n");
    sparse_to_mask(&both, mask);
    unsigned char corner[16 * 16];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) corner[i * 16 + j] = mask[i * SP_N + j];
    print_mask(corner, 16, 16);
    printf("%-18s %8s %8s\n", "pattern", "visible", "density");
    const sparse_pattern_t *ps[3] = {&loc, &str, &both};
    const char *names[3] = {"local", "strided", "local + strided"};
    const char *files[3] = {"mask_local.dat", "mask_strided.dat", "mask_sparse.dat"};
    for (int t = 0; t < 3; t++) {
        printf("%-18s %8ld %8.4f\n", names[t], ps[t]->nnz, pattern_density(ps[t]));
        sparse_to_mask(ps[t], mask);
        write_mask(r, files[t], mask, SP_N);
    }
    printf("%-18s %8d %8.4f\n", "full", SP_N * SP_N, 1.0);
    report_value(r, "sp_nnz", "%.0f", (double)both.nnz);
    report_value(r, "sp_density", "%.3f", pattern_density(&both));
    free(mask);
    sparse_free(&loc);
    sparse_free(&str);
    sparse_free(&both);
}

// ---------------------------------------------------------------------------
// two sparse implementations: equal results, different costs

// Random q, k, v (EQ_N, EQ_D) and room for two outputs (EQ_N, EQ_D) and the
// weights (EQ_N, EQ_N): what the sections comparing two ways of one result share.
typedef struct {
    float *q, *k, *v, *o1, *o2, *w;
} eq_t;

static eq_t eq_new(rng_t *rng) {
    const long nd = (long)EQ_N * EQ_D;
    eq_t e;
    e.q = normal_floats(rng, nd, 1.0f);
    e.k = normal_floats(rng, nd, 1.0f);
    e.v = normal_floats(rng, nd, 1.0f);
    e.o1 = xfloats(PROG, (size_t)nd), e.o2 = xfloats(PROG, (size_t)nd);
    e.w = xfloats(PROG, (size_t)EQ_N * EQ_N);
    return e;
}

static void eq_free(eq_t *e) {
    free(e->q), free(e->k), free(e->v), free(e->o1), free(e->o2), free(e->w);
}

static void sparse_equalities(report_t *r, rng_t *rng) {
    int n = EQ_N, d = EQ_D;
    eq_t e = eq_new(rng);
    float *q = e.q, *k = e.k, *v = e.v, *o1 = e.o1, *o2 = e.o2, *w = e.w;
    unsigned char *mask = xmalloc(PROG, (size_t)n * n);
    sparse_pattern_t p;
    xok(PROG, sparse_build(&p, n, SWEEP_WINDOW, sweep_stride(n), 0), "sparse_build");
    sparse_to_mask(&p, mask);
    attention_forward(q, k, v, mask, o1, w, n, n, d, d);
    xok(PROG, sparse_forward(q, k, v, &p, o2, d, d), "sparse_forward");
    printf("n = %d, d = %d, window %d, stride %d: density %.4f\n", n, d, SWEEP_WINDOW,
           sweep_stride(n), pattern_density(&p));
    report_check(r, "sparse kernel == masked dense attention",
                 mat_max_abs_diff(o1, o2, (size_t)n * d), 1e-5);
    sparse_free(&p);
    xok(PROG, sparse_build(&p, n, n, 0, 0), "sparse_build"); // window n: every key
    attention_forward(q, k, v, NULL, o1, w, n, n, d, d);
    xok(PROG, sparse_forward(q, k, v, &p, o2, d, d), "sparse_forward");
    report_check(r, "full pattern: sparse kernel == standard attention",
                 mat_max_abs_diff(o1, o2, (size_t)n * d), 1e-5);
    sparse_free(&p);
    eq_free(&e);
    free(mask);
}

static const int DENSITY_WINDOWS[] = {0, 2, 8, 32, 128, 256, DENSITY_N};
enum { N_DENSITY = sizeof DENSITY_WINDOWS / sizeof DENSITY_WINDOWS[0] };

static void section_sparse_costs(report_t *r, rng_t *rng) {
    report_section(r, "two sparse implementations");
    sparse_equalities(r, rng);
    int n = DENSITY_N, d = EQ_D;
    printf("\nn = %d, d_k = d_v = %d, local windows of growing width:\n", n, d);
    printf("%7s %8s %15s %15s %13s\n", "window", "density", "madds masked",
           "madds kernel", "kernel/masked");
    for (int t = 0; t < N_DENSITY; t++) {
        sparse_pattern_t p;
        xok(PROG, sparse_build(&p, n, DENSITY_WINDOWS[t], 0, 0), "sparse_build");
        double dense = (double)n * n * 2 * d, kern = (double)p.nnz * 2 * d;
        printf("%7d %8.4f %15.0f %15.0f %13.4f\n", DENSITY_WINDOWS[t],
               pattern_density(&p), dense, kern, kern / dense);
        if (t == 1) report_value(r, "dens_w2", "%.4f", pattern_density(&p));
        sparse_free(&p);
    }
    report_value(r, "dens_n", "%.0f", n);
    report_value(r, "dens_masked_madds", "%.0f", (double)n * n * 2 * d);
}

// ---------------------------------------------------------------------------
// local attention

static void section_local(report_t *r, rng_t *rng) {
    enum { N = LOC_N, D = LOC_D };
    float q[N * D], k[N * D], v[N * D], o1[N * D], o2[N * D], w[N * N];
    unsigned char mask[N * N];
    fill_normal(rng, q, N * D, 1.0f);
    fill_normal(rng, k, N * D, 1.0f);
    fill_normal(rng, v, N * D, 1.0f);
    sparse_pattern_t p;
    xok(PROG, sparse_build(&p, N, LOC_W, 0, 0), "sparse_build");
    sparse_to_mask(&p, mask);
    attention_forward(q, k, v, mask, o1, w, N, N, D, D);
    xok(PROG, sparse_forward(q, k, v, &p, o2, D, D), "sparse_forward");
    report_section(r, "local attention");
    printf("n = %d, d = %d, band |i - j| <= %d: the mask\n", N, D, LOC_W);
    print_mask(mask, N, N);
    printf("weights (zero outside the band, rows sum to 1):\n");
    report_print_matrix(w, N, N, 6, 3, NULL, NULL);
    report_check(r, "band kernel == masked dense attention",
                 mat_max_abs_diff(o1, o2, N * D), 1e-6);
    printf("token 0 reaches token %d only through %d layers of this band\n", N - 1,
           (N - 1 + LOC_W - 1) / LOC_W);
    report_value(r, "loc_layers", "%.0f", (double)((N - 1 + LOC_W - 1) / LOC_W));
    sparse_free(&p);
}

// ---------------------------------------------------------------------------
// hard attention

static void section_hard(report_t *r, rng_t *rng) {
    enum { N = HARD_N, D = HARD_D };
    float q[N * D], k[N * D], v[N * D], hq[N * D], oh[N * D], os[N * D], w[N * N];
    int idx[N];
    fill_normal(rng, q, N * D, 1.0f);
    fill_normal(rng, k, N * D, 1.0f);
    fill_normal(rng, v, N * D, 1.0f);
    attention_forward(q, k, v, NULL, os, w, N, N, D, D);
    hard_forward(q, k, v, NULL, oh, idx, N, N, D, D);
    report_section(r, "hard attention");
    printf("n = %d, d = %d; soft weights, and the key hard attention picks:\n", N, D);
    for (int i = 0; i < N; i++) {
        printf("  query %d:", i);
        for (int j = 0; j < N; j++) printf(" %6.3f", w[i * N + j]);
        printf("   -> key %d\n", idx[i]);
    }
    printf("%12s %22s\n", "temperature", "max |soft - hard| out");
    double err = 0.0;
    const float temps[] = {1.0f, 0.3f, 0.1f, 0.03f, 0.01f};
    for (int t = 0; t < 5; t++) {
        for (int e = 0; e < N * D; e++) hq[e] = q[e] / temps[t]; // softmax(s / T)
        attention_forward(hq, k, v, NULL, os, w, N, N, D, D);
        err = mat_max_abs_diff(os, oh, N * D);
        printf("%12.3f %22.6f\n", temps[t], err);
    }
    // At a temperature well below the smallest gap between the best and the
    // second-best score, every other weight is below exp(-30).
    double gap = INFINITY;
    for (int i = 0; i < N; i++) {
        double best = -INFINITY, second = -INFINITY;
        for (int j = 0; j < N; j++) {
            double sc = mat_dot(q + i * D, k + j * D, D) / sqrt((double)D);
            if (sc > best) second = best, best = sc;
            else if (sc > second) second = sc;
        }
        gap = fmin(gap, best - second);
    }
    for (int e = 0; e < N * D; e++) hq[e] = (float)(q[e] / (gap / 30.0));
    attention_forward(hq, k, v, NULL, os, w, N, N, D, D);
    printf("smallest gap between the best and second-best score: %.4f\n", gap);
    report_check(r, "T = gap / 30: soft attention == hard attention",
                 mat_max_abs_diff(os, oh, N * D), 1e-5);
    // the derivative of the hard output with respect to the queries
    float o2[N * D];
    double grad = 0.0;
    for (int e = 0; e < N * D; e++) {
        memcpy(hq, q, sizeof hq);
        hq[e] += 1e-3f;
        hard_forward(hq, k, v, NULL, o2, NULL, N, N, D, D);
        grad = fmax(grad, mat_max_abs_diff(o2, oh, N * D) / 1e-3);
    }
    report_check(r, "d(hard output)/d(query), finite differences", grad, 0.0);
}

// ---------------------------------------------------------------------------
// linear attention

static void section_linear_exact(report_t *r, rng_t *rng) {
    int n = EQ_N, d = EQ_D;
    eq_t e = eq_new(rng);
    float *q = e.q, *k = e.k, *v = e.v, *o1 = e.o1, *o2 = e.o2, *w = e.w;
    unsigned char *causal = xmalloc(PROG, (size_t)n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) causal[i * n + j] = j <= i;
    report_section(r, "linear attention");
    printf("n = %d, d_k = d_v = %d, phi(x) = elu(x) + 1\n", n, d);
    xok(PROG, linattn_forward_quadratic(q, k, v, NULL, o1, w, n, n, d, d), "linattn");
    xok(PROG, linattn_forward(q, k, v, o2, n, n, d, d), "linattn_forward");
    report_check(r, "phi(Q)(phi(K)^T V) == (phi(Q) phi(K)^T) V",
                 mat_max_abs_diff(o1, o2, (size_t)n * d), 1e-5);
    xok(PROG, linattn_forward_quadratic(q, k, v, causal, o1, w, n, n, d, d), "linattn");
    xok(PROG, linattn_causal(q, k, v, o2, n, d, d), "linattn_causal");
    report_check(r, "running sums == causal mask on the quadratic form",
                 mat_max_abs_diff(o1, o2, (size_t)n * d), 1e-5);
    size_t state = linattn_work_bytes(d, d);
    printf("state carried from token to token: S (%d x %d) and z (%d) = %zu bytes\n", d,
           d, d, state);
    printf("the (n x n) weights it never stores: %zu bytes\n",
           (size_t)n * n * sizeof(float));
    report_value(r, "lin_state_bytes", "%.0f", (double)state);
    report_value(r, "eq_n", "%.0f", n);
    report_value(r, "eq_d", "%.0f", d);
    eq_free(&e);
    free(causal);
}

static void section_linear_error(report_t *r, rng_t *rng) {
    enum { N = LIN_N, D = LIN_D };
    float *q = xfloats(PROG, N * D), *k = xfloats(PROG, N * D);
    float *v = normal_floats(rng, N * D, 1.0f), *z_q = normal_floats(rng, N * D, 1.0f);
    float *z_k = normal_floats(rng, N * D, 1.0f);
    float *os = xfloats(PROG, N * D), *ol = xfloats(PROG, N * D);
    float *ws = xfloats(PROG, N * N), *wl = xfloats(PROG, N * N);
    const float scales[] = {0.25f, 0.5f, 1.0f, 2.0f, 4.0f};
    report_section(r, "linear vs softmax attention");
    printf("n = %d, d = %d; q, k ~ N(0, s^2), v ~ N(0, 1); the same inputs to both\n",
           N, D);
    printf("%6s %12s %12s %12s %12s %12s\n", "s", "H softmax", "H linear", "max w soft",
           "max w lin", "max |out|");
    FILE *f = report_data(r, "linear_error.dat");
    if (f) fprintf(f, "# s entropy_softmax entropy_linear max_out_diff ln_n\n");
    for (int t = 0; t < 5; t++) {
        for (int e = 0; e < N * D; e++)
            q[e] = scales[t] * z_q[e], k[e] = scales[t] * z_k[e];
        attention_forward(q, k, v, NULL, os, ws, N, N, D, D);
        xok(PROG, linattn_forward_quadratic(q, k, v, NULL, ol, wl, N, N, D, D),
            "linattn");
        double hs = attn_mean_entropy(ws, N, N), hl = attn_mean_entropy(wl, N, N);
        double ms = 0.0, ml = 0.0;
        for (int i = 0; i < N; i++) {
            ms += attn_max_weight(ws + i * N, 1, N) / N;
            ml += attn_max_weight(wl + i * N, 1, N) / N;
        }
        double err = mat_max_abs_diff(os, ol, N * D);
        printf("%6.2f %12.4f %12.4f %12.4f %12.4f %12.4f\n", scales[t], hs, hl, ms, ml,
               err);
        if (f)
            fprintf(f, "%g %.6f %.6f %.6f %.6f\n", scales[t], hs, hl, err,
                    log((double)N));
        char key[32];
        if (t == 0 || t == 4) {
            snprintf(key, sizeof key, "lin_err_s%d", t);
            report_value(r, key, "%.3f", err);
            snprintf(key, sizeof key, "lin_hs_s%d", t);
            report_value(r, key, "%.3f", hs);
            snprintf(key, sizeof key, "lin_hl_s%d", t);
            report_value(r, key, "%.3f", hl);
        }
    }
    report_data_close(r, f);
    printf("uniform weights over %d keys: entropy ln %d = %.4f\n", N, N,
           log((double)N));
    report_value(r, "lin_h_uniform", "%.3f", log((double)N));
    free(q), free(k), free(v), free(z_q), free(z_k), free(os), free(ol), free(ws),
        free(wl);
}

// ---------------------------------------------------------------------------
// the online softmax, traced on one row of scores

static void section_online_trace(report_t *r) {
    enum { M = 8, B = 3 };
    // scores chosen so that the running max rises twice: the rescale at work
    float s[M] = {0.5f, -1.0f, 1.2f, 2.0f, 0.1f, -0.3f, 3.1f, 0.7f}, v[M], out;
    for (int j = 0; j < M; j++) v[j] = (float)j; // value j = position j
    double acc[1];
    online_state_t st;
    online_init(&st, acc, 1);
    report_section(r, "online softmax");
    printf("scores of one query over %d keys, values v_j = j, blocks of %d keys:\n", M,
           B);
    printf("  s =");
    for (int j = 0; j < M; j++) printf(" %6.3f", s[j]);
    printf("\n%7s %11s %9s %10s %9s %9s\n", "keys", "block max", "max M", "rescale",
           "sum L", "A / L");
    for (int j0 = 0; j0 < M; j0 += B) {
        int count = M - j0 < B ? M - j0 : B;
        float bmax = -INFINITY, old = st.max;
        for (int e = 0; e < count; e++) bmax = fmaxf(bmax, s[j0 + e]);
        online_update(&st, s + j0, v + j0, count);
        double rescale = old == -INFINITY ? 0.0 : exp((double)old - st.max);
        char keys[16];
        snprintf(keys, sizeof keys, "%d..%d", j0, j0 + count - 1);
        printf("%7s %11.3f %9.3f %10.4f %9.4f %9.4f\n", keys, bmax, st.max, rescale,
               st.sum, st.acc[0] / st.sum);
    }
    online_finish(&st, &out);
    float p[M];
    memcpy(p, s, sizeof p);
    softmax(p, M);
    double want = 0.0;
    for (int j = 0; j < M; j++) want += (double)p[j] * v[j];
    printf("softmax-weighted sum of the values, computed the ordinary way: %.4f\n",
           want);
    report_check(r, "online result == softmax then sum", out - want, 1e-6);
    report_value(r, "trace_out", "%.4f", out);
}

static void section_online_exact(report_t *r, rng_t *rng) {
    int n = EQ_N, d = EQ_D;
    float *q = normal_floats(rng, (long)n * d, 2.0f),
          *k = normal_floats(rng, (long)n * d, 2.0f);
    float *v = normal_floats(rng, (long)n * d, 1.0f);
    float *o1 = xfloats(PROG, (size_t)n * d), *o2 = xfloats(PROG, (size_t)n * d);
    float *w = xfloats(PROG, (size_t)n * n);
    unsigned char *mask = xmalloc(PROG, (size_t)n * n);
    for (long e = 0; e < (long)n * n; e++) mask[e] = rng_uniform(rng) < 0.5f;
    for (int j = 0; j < n; j++) mask[7L * n + j] = 0; // query 7 sees nothing
    report_section(r, "exact attention in blocks");
    printf("n = m = %d, d = %d, q, k ~ N(0, 4)\n", n, d);
    printf("%-28s %6s %18s\n", "mask", "block", "max |online - std|");
    const int blocks[] = {1, 7, 64, n};
    double worst = 0.0;
    for (int use_mask = 0; use_mask < 2; use_mask++) {
        const unsigned char *mk = use_mask ? mask : NULL;
        attention_forward(q, k, v, mk, o1, w, n, n, d, d);
        for (int b = 0; b < 4; b++) {
            xok(PROG, online_attention(q, k, v, mk, o2, n, n, d, d, blocks[b]),
                "online");
            double diff = mat_max_abs_diff(o1, o2, (size_t)n * d);
            worst = fmax(worst, diff);
            printf("%-28s %6d %18.1e\n",
                   use_mask ? "random, row 7 fully hidden" : "none", blocks[b], diff);
        }
    }
    report_check(r, "online == standard attention (all above)", worst, 1e-5);
    double row7 = 0.0;
    for (int c = 0; c < d; c++) row7 = fmax(row7, fabs(o2[7 * d + c]));
    report_check(r, "fully hidden row 7 is all zeros", row7, 0.0);
    printf("extra memory: standard %zu bytes of weights; online %zu bytes\n",
           (size_t)n * n * sizeof(float), online_work_bytes(d, ONLINE_BLOCK));
    report_value(r, "online_bytes", "%.0f", (double)online_work_bytes(d, ONLINE_BLOCK));
    free(q), free(k), free(v), free(o1), free(o2), free(w), free(mask);
}

// ---------------------------------------------------------------------------
// counted cost: multiply-adds and bytes of working memory, by formula

typedef struct {
    double madds; // multiply-adds of the products q.k and w v (and the state)
    double bytes; // working memory beyond q, k, v and out
} cost_t;

// snippet: variant_cost
static cost_t variant_cost(int variant, int n, int d) {
    double nn = n, dd = d, f = sizeof(float);
    double dense = nn * nn * 2 * dd; // Q K^T and W V, d_k = d_v = d
    double state = (nn + nn) * dd * (dd + 1); // S = phi(K)^T V, z; then reads
    switch (variant) {
        case V_STANDARD:
            return (cost_t){dense, nn * nn * f};
        case V_MASKED:
            return (cost_t){dense, nn * nn * (f + 1)}; // weights + mask
        case V_SPARSE:
        case V_LOCAL: {
            sparse_pattern_t p;
            int stride = variant == V_LOCAL ? 0 : sweep_stride(n);
            xok(PROG, sparse_build(&p, n, sweep_window(variant, n), stride, 0),
                "sparse_build");
            cost_t c = {(double)p.nnz * 2 * dd,
                        (double)(sparse_pattern_bytes(&p) + sparse_work_bytes(&p))};
            sparse_free(&p);
            return c;
        }
        case V_LINEAR:
        case V_CAUSAL:
            return (cost_t){state, (double)linattn_work_bytes(d, d)};
        case V_ONLINE: // + rescaling once per block
            return (cost_t){dense + nn * ceil(nn / ONLINE_BLOCK) * (dd + 1),
                            (double)online_work_bytes(d, ONLINE_BLOCK)};
        case V_RELATIVE:
            return (cost_t){dense, nn * nn * f};
        default:
            return (cost_t){nn * nn * dd, nn * sizeof(int)}; // V_HARD
    }
}
// end snippet

static const int SHOWN[] = {V_STANDARD, V_SPARSE, V_LOCAL, V_LINEAR, V_ONLINE, V_HARD};
enum { N_SHOWN = sizeof SHOWN / sizeof SHOWN[0] };

// Smallest n >= 1 at which variant a costs less than variant b (field 0 =
// multiply-adds, 1 = bytes), scanning n up to limit; 0 if never.
static int count_crossover(int a, int b, int bytes, int limit) {
    for (int n = 1; n <= limit; n++) {
        cost_t ca = variant_cost(a, n, EQ_D), cb = variant_cost(b, n, EQ_D);
        if ((bytes ? ca.bytes < cb.bytes : ca.madds < cb.madds)) return n;
    }
    return 0;
}

// 1 if the (n, window, stride) pattern reaches every key in two steps.
static int reaches(int n, int window, int stride) {
    sparse_pattern_t p;
    xok(PROG, sparse_build(&p, n, window, stride, 0), "sparse_build");
    int reach = sparse_two_step_reach(&p);
    xok(PROG, reach < 0 ? -1 : 0, "sparse_two_step_reach");
    sparse_free(&p);
    return reach;
}

// Two-step reach of the swept pattern at every n of the sweep up to max_reach,
// and the first n (scanning every n up to REACH_SCAN) at which a fixed window
// fails.
static void counted_reach(report_t *r, long max_reach) {
    enum { REACH_SCAN = 4096 };
    int all = 1, fail_fixed = 0;
    printf("two-step reach, window = stride = round(sqrt n):");
    for (int n = SWEEP_LO, t = 0; n <= max_reach; n *= 2, t++) {
        int ok = reaches(n, sweep_window(V_SPARSE, n), sweep_stride(n));
        all &= ok;
        printf("%s%d %s", t % 6 == 0 ? "\n  " : ", ", n, ok ? "yes" : "no");
    }
    for (int n = SWEEP_LO; n <= REACH_SCAN && !fail_fixed; n++)
        if (!reaches(n, SWEEP_WINDOW, sweep_stride(n))) fail_fixed = n;
    printf("\nwith a fixed window of %d instead: two steps first fail at n = %d\n",
           SWEEP_WINDOW, fail_fixed);
    int n = fail_fixed, st = sweep_stride(n), lost = -1;   // a key query 0 misses
    for (int k = 0; k < n && lost < 0; k++) {
        int hit = 0;
        for (int j = 0; j < n && !hit; j++)
            hit = sparse_visible(0, j, SWEEP_WINDOW, st, 0) &&
                  sparse_visible(j, k, SWEEP_WINDOW, st, 0);
        if (!hit) lost = k;
    }
    printf("  (stride %d: query 0 cannot reach key %d through any key)\n", st, lost);
    report_check_true(r, "window = stride: two-step reach at every n of the sweep",
                      all);
    report_check_true(r, "fixed window: a pair two steps cannot join, found by hand",
                      fail_fixed > 0 && lost >= 0);
    report_value(r, "sparse_reach_fail_stride", "%.0f", st);
    report_value(r, "sparse_reach_fail_key", "%.0f", lost);
    report_value(r, "sparse_reach_all", "%.0f", all);
    report_value(r, "sparse_reach_fail_n_fixed", "%.0f", fail_fixed);
    report_value(r, "sparse_fixed_window", "%.0f", SWEEP_WINDOW);
}

static void section_counted(report_t *r, long max_reach) {
    int d = EQ_D;
    report_section(r, "counted cost");
    printf("d_k = d_v = %d; sparse: window = stride = round(sqrt n); local: window "
           "%d;\nonline blocks of %d\n", d, SWEEP_WINDOW, ONLINE_BLOCK);
    printf("%-10s %12s %12s %8s %12s %12s %8s\n", "", "madds", "madds", "slope",
           "bytes", "bytes", "slope");
    printf("%-10s %12s %12s %8s %12s %12s %8s\n", "variant", "n = 1024", "n = 8192", "",
           "n = 1024", "n = 8192", "");
    FILE *f = report_data(r, "costs.dat");
    if (f) {
        fprintf(f, "# n, then multiply-adds of the %d variants, then their bytes:",
                N_VARIANTS);
        for (int v = 0; v < N_VARIANTS; v++) fprintf(f, " %s", VNAME[v]);
        fprintf(f, "\n");
        for (int n = SWEEP_LO; n <= SWEEP_HI; n *= 2) {
            fprintf(f, "%d", n);
            for (int v = 0; v < N_VARIANTS; v++)
                fprintf(f, " %.6g", variant_cost(v, n, d).madds);
            for (int v = 0; v < N_VARIANTS; v++)
                fprintf(f, " %.6g", variant_cost(v, n, d).bytes);
            fprintf(f, "\n");
        }
        report_data_close(r, f);
    }
    for (int v = 0; v < N_VARIANTS; v++) {
        cost_t a = variant_cost(v, 1024, d), b = variant_cost(v, SWEEP_HI, d);
        cost_t h = variant_cost(v, SWEEP_HI / 2, d);
        double sm = log2(b.madds / h.madds), sb = log2(b.bytes / h.bytes);
        printf("%-10s %12.3e %12.3e %8.2f %12.3e %12.3e %8.2f\n", VNAME[v], a.madds,
               b.madds, sm, a.bytes, b.bytes, sb);
        char key[40];
        snprintf(key, sizeof key, "slope_madds_%s", VKEY[v]);
        report_value(r, key, "%.2f", sm);
        snprintf(key, sizeof key, "slope_bytes_%s", VKEY[v]);
        report_value(r, key, "%.2f", sb);
    }
    printf("(slopes: log2 of the ratio between n = %d and n = %d)\n", SWEEP_HI / 2,
           SWEEP_HI);
    int x_lin = count_crossover(V_LINEAR, V_STANDARD, 0, 4096);
    int x_sp = count_crossover(V_SPARSE, V_STANDARD, 0, 512);
    int x_on = count_crossover(V_ONLINE, V_STANDARD, 1, 4096);
    printf("fewer multiply-adds than standard from n = %d (linear), n = %d (sparse)\n",
           x_lin, x_sp);
    printf("fewer bytes than standard: online from n = %d\n", x_on);
    report_value(r, "x_lin_count", "%.0f", x_lin);
    report_value(r, "x_sparse_count", "%.0f", x_sp);
    report_value(r, "x_online_bytes", "%.0f", x_on);
    cost_t s8 = variant_cost(V_STANDARD, SWEEP_HI, d),
           l8 = variant_cost(V_LINEAR, SWEEP_HI, d);
    report_value(r, "std_bytes_8192", "%.0f", s8.bytes);
    report_value(r, "ratio_lin_8192", "%.0f", s8.madds / l8.madds);
    double row8 = variant_cost(V_SPARSE, SWEEP_HI, d).madds / (2.0 * d) / SWEEP_HI;
    report_value(r, "sparse_row_sqrt_8192", "%.2f", row8 / sqrt(SWEEP_HI));
    report_value(r, "sweep_d", "%.0f", d);
    counted_reach(r, max_reach);
}

// ---------------------------------------------------------------------------
// measured: wall-clock time on this machine (varies from run to run)

// Inputs and buffers every timed call uses, sized for the largest n.
typedef struct {
    int d, max_dense, max_n;
    float *q, *k, *v, *out, *w, *emb_k, *emb_v;
    unsigned char *mask;
    sparse_pattern_t pat;
} bench_t;

// Prepare what a variant needs at length n outside the timed region.
static void bench_prepare(bench_t *b, int variant, int n) {
    sparse_free(&b->pat);
    if (variant == V_SPARSE || variant == V_MASKED || variant == V_LOCAL) {
        int stride = variant == V_LOCAL ? 0 : sweep_stride(n);
        xok(PROG, sparse_build(&b->pat, n, sweep_window(variant, n), stride, 0),
            "sparse_build");
        if (variant == V_MASKED) sparse_to_mask(&b->pat, b->mask);
    }
}

static void bench_call(bench_t *b, int variant, int n) {
    int d = b->d, rc = 0;
    switch (variant) {
        case V_STANDARD:
            attention_forward(b->q, b->k, b->v, NULL, b->out, b->w, n, n, d, d);
            break;
        case V_MASKED:
            attention_forward(b->q, b->k, b->v, b->mask, b->out, b->w, n, n, d, d);
            break;
        case V_SPARSE:
        case V_LOCAL:
            rc = sparse_forward(b->q, b->k, b->v, &b->pat, b->out, d, d);
            break;
        case V_LINEAR:
            rc = linattn_forward(b->q, b->k, b->v, b->out, n, n, d, d);
            break;
        case V_CAUSAL:
            rc = linattn_causal(b->q, b->k, b->v, b->out, n, d, d);
            break;
        case V_ONLINE:
            rc = online_attention(b->q, b->k, b->v, NULL, b->out, n, n, d, d,
                                  ONLINE_BLOCK);
            break;
        case V_RELATIVE: {
            const relpos_t rel = {.emb_k = b->emb_k, .emb_v = b->emb_v,
                                  .k_max = SWEEP_REL_K, .d_k = d, .d_v = d};
            relpos_forward(b->q, b->k, b->v, &rel, NULL, b->out, b->w, n, n);
            break;
        }
        default:
            hard_forward(b->q, b->k, b->v, NULL, b->out, NULL, n, n, d, d);
    }
    xok(PROG, rc, "a timed variant");
}

// Best of a few calls (the least disturbed by other programs): at least two,
// three if they are short, and short ones repeated until about 5 ms have passed.
static double bench_time(bench_t *b, int variant, int n) {
    double best = INFINITY, total = 0.0;
    for (int rep = 0; rep < 200; rep++) {
        double t0 = clock_wall_seconds();
        bench_call(b, variant, n);
        double t = clock_wall_seconds() - t0;
        total += t;
        if (t < best) best = t;
        if (rep >= 1 && best > 0.1) break;
        if (rep >= 2 && total >= 5e-3) break;
    }
    return best;
}

static int is_dense(int variant) {
    return variant == V_STANDARD || variant == V_MASKED || variant == V_ONLINE ||
           variant == V_RELATIVE || variant == V_HARD;
}

enum { N_SIZES = 10 }; // n = 16, 32, ..., 8192

// Least-squares slope of log t against log n over the last 3 measured sizes.
static double fit_slope(const double *t, int *used) {
    double x[N_SIZES], y[N_SIZES];
    int k = 0;
    for (int s = N_SIZES - 1; s >= 0 && k < 3; s--)
        if (t[s] > 0) x[k] = log((double)(SWEEP_LO << s)), y[k] = log(t[s]), k++;
    *used = k;
    if (k < 2) return NAN;
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (int e = 0; e < k; e++) mx += x[e] / k, my += y[e] / k;
    for (int e = 0; e < k; e++)
        sxx += (x[e] - mx) * (x[e] - mx), sxy += (x[e] - mx) * (y[e] - my);
    return sxy / sxx;
}

// The smallest swept n from which variant a is faster than b at every larger
// n where both were measured; 0 if never.
static int measured_crossover(double t[][N_SIZES], int a, int b) {
    int from = 0;
    for (int s = 0; s < N_SIZES; s++) {
        if (t[a][s] <= 0 || t[b][s] <= 0) continue;
        if (t[a][s] < t[b][s]) {
            if (!from) from = SWEEP_LO << s;
        } else {
            from = 0;
        }
    }
    return from;
}

// Print "label words..." folded into lines of at most 78 columns.
static void print_wrapped(const char *label, const char *text) {
    int col = printf("%s", label);
    while (*text) {
        while (*text == ' ') text++;
        int len = (int)strcspn(text, " ");
        if (len == 0) break;
        if (col + 1 + len > 78) col = printf("\n      ") - 1;
        col += printf(" %.*s", len, text);
        text += len;
    }
    printf("\n");
}

static void machine_label(void) {
    char cpu[128] = "unknown CPU", line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            snprintf(cpu, sizeof cpu, "%s", strchr(line, ':') + 2);
            cpu[strcspn(cpu, "\n")] = 0;
            break;
        }
    if (f) fclose(f);
    printf("machine: %.70s\n", cpu);
#if defined(__clang__)
    printf("compiler: clang %.60s\n", __clang_version__);
#elif defined(__GNUC__)
    printf("compiler: gcc %.60s\n", __VERSION__);
#endif
#ifdef BUILD_CFLAGS
    print_wrapped("flags:", BUILD_CFLAGS);
#else
    printf("flags: (not recorded)\n");
#endif
}

static void measure_sweep(report_t *r, bench_t *b, double t[][N_SIZES]) {
    for (int v = 0; v < N_VARIANTS; v++) {
        int stopped = 0;
        for (int s = 0; s < N_SIZES; s++) {
            int n = SWEEP_LO << s;
            t[v][s] = -1.0; // not measured
            if (stopped || n > b->max_n || (is_dense(v) && n > b->max_dense)) continue;
            bench_prepare(b, v, n);
            t[v][s] = bench_time(b, v, n);
            // the next size costs 2x (linear) to 4x (quadratic): stop early
            if (t[v][s] * (is_dense(v) ? 4 : 2) > 0.4) stopped = 1;
        }
    }
    FILE *f = report_data(r, "measured_time.dat");
    if (!f) return;
    fprintf(f, "# n, seconds per call of:");
    for (int v = 0; v < N_VARIANTS; v++) fprintf(f, " %s", VNAME[v]);
    fprintf(f, "  ('?' = not measured)\n");
    for (int s = 0; s < N_SIZES; s++) {
        fprintf(f, "%d", SWEEP_LO << s);
        for (int v = 0; v < N_VARIANTS; v++)
            t[v][s] > 0 ? fprintf(f, " %.4e", t[v][s]) : fprintf(f, " ?");
        fprintf(f, "\n");
    }
    report_data_close(r, f);
}

// at n = DENSITY_N, or --max-n if smaller (its windows then stop at n)
static void measure_density(report_t *r, bench_t *b) {
    int n = DENSITY_N < b->max_n ? DENSITY_N : b->max_n, d = b->d;
    FILE *f = report_data(r, "measured_density.dat");
    if (f) fprintf(f, "# density, seconds: masked dense, sparse kernel (n = %d)\n", n);
    printf("\nn = %d, local windows: seconds per call\n", n);
    printf("%8s %12s %12s\n", "density", "masked", "kernel");
    for (int t = 0; t < N_DENSITY; t++) {
        if (t > 0 && DENSITY_WINDOWS[t - 1] >= n) break;
        int window = DENSITY_WINDOWS[t] < n ? DENSITY_WINDOWS[t] : n;
        sparse_free(&b->pat);
        xok(PROG, sparse_build(&b->pat, n, window, 0, 0), "sparse_build");
        sparse_to_mask(&b->pat, b->mask);
        double best_m = INFINITY, best_k = INFINITY;
        for (int rep = 0; rep < 2; rep++) {
            double t0 = clock_wall_seconds();
            attention_forward(b->q, b->k, b->v, b->mask, b->out, b->w, n, n, d, d);
            double t1 = clock_wall_seconds();
            int rc = sparse_forward(b->q, b->k, b->v, &b->pat, b->out, d, d);
            xok(PROG, rc, "sparse_forward");
            double t2 = clock_wall_seconds();
            best_m = fmin(best_m, t1 - t0), best_k = fmin(best_k, t2 - t1);
        }
        printf("%8.4f %12.2e %12.2e\n", pattern_density(&b->pat), best_m, best_k);
        if (f) fprintf(f, "%.6f %.4e %.4e\n", pattern_density(&b->pat), best_m, best_k);
    }
    report_data_close(r, f);
}

static void print_measured(double t[][N_SIZES]) {
    printf("seconds per call, d_k = d_v = %d ('-' = not measured: too slow)\n", EQ_D);
    printf("%6s", "n");
    for (int k = 0; k < N_SHOWN; k++) printf(" %9s", VNAME[SHOWN[k]]);
    printf("\n");
    for (int s = 0; s < N_SIZES; s++) {
        printf("%6d", SWEEP_LO << s);
        for (int k = 0; k < N_SHOWN; k++)
            t[SHOWN[k]][s] > 0 ? printf(" %9.2e", t[SHOWN[k]][s]) : printf(" %9s", "-");
        printf("\n");
    }
    printf("\n%-10s %6s  %s\n", "variant", "slope", "(log-log, over the 3 largest n)");
    for (int v = 0; v < N_VARIANTS; v++) {
        int used;
        double sl = fit_slope(t[v], &used);
        printf("%-10s %6.2f  %s\n", VNAME[v], sl, VLONG[v]);
    }
    const int pairs[][2] = {{V_LINEAR, V_STANDARD}, {V_SPARSE, V_STANDARD},
                            {V_LOCAL, V_STANDARD},  {V_SPARSE, V_MASKED},
                            {V_ONLINE, V_STANDARD}, {V_LINEAR, V_SPARSE}};
    printf("\nfaster than from n = (0: not in the measured range)\n");
    for (int k = 0; k < 6; k++)
        printf("  %-10s faster than %-10s from n = %d\n", VNAME[pairs[k][0]],
               VNAME[pairs[k][1]], measured_crossover(t, pairs[k][0], pairs[k][1]));
}

static void section_measured(report_t *r, rng_t *rng, long max_dense, long max_n) {
    bench_t b = {.d = EQ_D, .max_dense = (int)max_dense, .max_n = (int)max_n};
    long big = (long)SWEEP_HI * EQ_D, dense = (long)max_dense * max_dense;
    if (dense < (long)DENSITY_N * DENSITY_N) dense = (long)DENSITY_N * DENSITY_N;
    b.q = normal_floats(rng, big, 1.0f), b.k = normal_floats(rng, big, 1.0f);
    b.v = normal_floats(rng, big, 1.0f), b.out = xfloats(PROG, (size_t)big);
    b.w = xfloats(PROG, (size_t)dense);
    b.mask = xmalloc(PROG, (size_t)dense);
    b.emb_k = normal_floats(rng, (2 * SWEEP_REL_K + 1) * EQ_D, 1.0f);
    b.emb_v = normal_floats(rng, (2 * SWEEP_REL_K + 1) * EQ_D, 1.0f);
    double t[N_VARIANTS][N_SIZES];

    report_section(r, "measured time");
    machine_label();
    measure_sweep(r, &b, t);
    print_measured(t);
    measure_density(r, &b);
    sparse_free(&b.pat);
    free(b.q), free(b.k), free(b.v), free(b.out), free(b.w), free(b.mask);
    free(b.emb_k), free(b.emb_v);
}

// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// the fast kernel: the online softmax over cache-sized tiles (fast/tiled.h)

enum { FAST_N = 300, FAST_D = 64, FAST_HEADS = 2 };

// Exactness first: the tuned kernel against attention_forward, and its exp
// against the C library's, on a grid of [-87, 0].
static void section_fast_exact(report_t *r, rng_t *rng) {
    report_section(r, "fast kernel");
    const int n = FAST_N, d = FAST_D, h = FAST_HEADS;
    float *q = normal_floats(rng, (long)h * n * d, 1.0f);
    float *k = normal_floats(rng, (long)h * n * d, 1.0f);
    float *v = normal_floats(rng, (long)h * n * d, 1.0f);
    float *fast = xfloats(PROG, (size_t)h * n * d),
          *want = xfloats(PROG, (size_t)n * d);
    float *w = xfloats(PROG, (size_t)n * n);
    xok(PROG, tiled_attention_forward(q, k, v, fast, h, n, n, d, d), "tiled_attention");
    double worst = 0.0;
    for (int hh = 0; hh < h; hh++) {
        attention_forward(q + (size_t)hh * n * d, k + (size_t)hh * n * d,
                          v + (size_t)hh * n * d, NULL, want, w, n, n, d, d);
        double diff = mat_max_abs_diff(fast + (size_t)hh * n * d, want, (size_t)n * d);
        if (diff > worst) worst = diff;
    }
    double exp_err = 0.0;
    for (int i = 0; i <= 87000; i++) {
        const float x = (float)(-0.001 * i);   // exp of the same float the kernel sees
        double rel = fabs(tiled_exp(x) - exp((double)x)) / exp((double)x);
        if (rel > exp_err) exp_err = rel;
    }
    printf("%d heads of n = %d queries and keys, d = %d; tiles of %d queries x %d "
           "keys\n",
           h, n, d, TILED_BQ, TILED_BK);
    printf("working memory: %zu bytes per thread, whatever n is, plus one\n",
           tiled_workspace_bytes(d, d));
    printf("transposed copy of the keys (n d floats)\n");
    report_check(r, "tiled == standard attention, max |difference|", worst, 1e-5);
    report_check(r, "tiled_exp vs exp on [-87, 0], max relative error", exp_err,
                 TILED_EXP_REL_ERROR);
    report_value(r, "fast_bq", "%.0f", TILED_BQ);
    report_value(r, "fast_bk", "%.0f", TILED_BK);
    report_value(r, "fast_d", "%.0f", d);
    report_value(r, "fast_lazy", "%.0f", (double)TILED_LAZY);
    report_value(r, "fast_lazy_gap", "%.2f", TILED_LAZY * log(2.0));
    report_value(r, "fast_lazy_weight", "%.0f", exp2((double)TILED_LAZY));
    report_value(r, "fast_work", "%.0f", (double)tiled_workspace_bytes(d, d));
    free(q); free(k); free(v); free(fast); free(want); free(w);
}

// ---------------------------------------------------------------------------
// FlashAttention: the backward from the log-sum-exp, bytes moved, causal tiles

enum { FB_N = 200, FB_D = 32, FB_HEADS = 2 };   // n not a multiple of a tile

// The standard path for head hh: attention_forward with the causal mask (or
// none), then attention_backward from its stored weights w (FB_N, FB_N).
static void flash_reference(const float *q, const float *k, const float *v,
                            const float *dout, float *out, float *w, float *dq,
                            float *dk, float *dv, const unsigned char *mask) {
    const int n = FB_N, d = FB_D;
    float *scratch = xfloats(PROG, (size_t)n * n);
    attention_forward(q, k, v, mask, out, w, n, n, d, d);
    attn_saved_t fw = {.q = q, .k = k, .v = v, .weights = w};
    memset(dq, 0, sizeof(float) * n * d);
    memset(dk, 0, sizeof(float) * n * d);
    memset(dv, 0, sizeof(float) * n * d);
    attention_backward(&fw, dout, dq, dk, dv, n, n, d, d, scratch);
    free(scratch);
}

// Largest |log sum_j exp(s_ij) - lse_i| over the rows of one head, s = q k^T /
// sqrt(d) over the visible keys (j <= i when causal).
static double lse_error(const float *q, const float *k, const float *lse, int causal) {
    const int n = FB_N, d = FB_D;
    float *s = xfloats(PROG, (size_t)n * n);
    attention_scores(q, k, s, n, n, d);
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        int seen = causal ? i + 1 : n;
        double mx = s[i * n];
        for (int j = 1; j < seen; j++) mx = fmax(mx, s[i * n + j]);
        double z = 0.0;
        for (int j = 0; j < seen; j++) z += exp(s[i * n + j] - mx);
        worst = fmax(worst, fabs(mx + log(z) - lse[i]));
    }
    free(s);
    return worst;
}

// Flash backward (from out and lse) against the standard backward (from the
// stored weights), for all heads, with and without the causal mask.
static void section_flash_backward(report_t *r, uint64_t seed) {
    const int n = FB_N, d = FB_D, h = FB_HEADS;
    const size_t hd = (size_t)n * d, all = (size_t)h * hd;
    rng_t rng;
    rng_seed(&rng, seed);
    float *q = normal_floats(&rng, (long)all, 1.0f);
    float *k = normal_floats(&rng, (long)all, 1.0f);
    float *v = normal_floats(&rng, (long)all, 1.0f);
    float *dout = normal_floats(&rng, (long)all, 1.0f);
    float *g = xfloats(PROG, 4 * all), *ref = xfloats(PROG, 4 * hd);  // out dq dk dv
    float *lse = xfloats(PROG, (size_t)h * n), *w = xfloats(PROG, (size_t)n * n);
    unsigned char *causal = xmalloc(PROG, (size_t)n * n);
    mask_causal(causal, n);
    double worst[2] = {0.0, 0.0}, lse_worst = 0.0;
    for (int c = 0; c <= 1; c++) {
        tiled_shape_t shape = {.h = h, .n = n, .m = n, .d_k = d, .d_v = d, .causal = c};
        xok(PROG, tiled_attention(q, k, v, g, lse, &shape), "tiled_attention");
        flash_saved_t fw = {.q = q, .k = k, .v = v, .out = g, .lse = lse};
        xok(PROG, flash_attention_backward(&fw, dout, g + all, g + 2 * all, g + 3 * all,
                                           &shape),
            "flash_attention_backward");
        for (int hh = 0; hh < h; hh++) {
            size_t o = (size_t)hh * hd;
            flash_reference(q + o, k + o, v + o, dout + o, ref, w, ref + hd,
                            ref + 2 * hd, ref + 3 * hd, c ? causal : NULL);
            for (int t = 1; t < 4; t++)   // dq, dk, dv
                worst[c] = fmax(worst[c], mat_max_abs_diff(g + t * all + o,
                                                           ref + t * hd, hd));
            double e = lse_error(q + o, k + o, lse + (size_t)hh * n, c);
            lse_worst = fmax(lse_worst, e);
        }
    }
    report_section(r, "flash backward");
    printf("%d heads, n = %d, d = %d: the forward keeps out and one log-sum-exp per\n"
           "query (%d bytes per head); the backward recomputes each tile of weights\n"
           "as exp(s - lse) and never stores an n x n matrix\n", h, n, d,
           n * (int)sizeof(float));
    printf("max |dq, dk, dv - standard backward|: %.3g (no mask), %.3g (causal)\n",
           worst[0], worst[1]);
    report_check(r, "lse == log-sum-exp of the scores", lse_worst, 1e-5);
    report_check(r, "flash backward == standard backward", fmax(worst[0], worst[1]),
                 1e-5);
    report_value(r, "flash_bwd_max_diff", "%.1e", fmax(worst[0], worst[1]));
    report_value(r, "flash_bwd_lse_bytes", "%.0f", (double)n * sizeof(float));
    report_value(r, "flash_bwd_n", "%.0f", n);
    free(q), free(k), free(v), free(dout), free(g), free(ref), free(lse), free(w);
    free(causal);
}

// Floats moved between slow memory (HBM) and a fast memory of M floats, for
// one head of n queries and keys of width d (Dao et al. 2022, section 3.2).
// Standard attention (their Algorithm 0): read Q, K, write S; read S, write P;
// read P, V, write O.
static double io_standard(double n, double d) { return 4 * n * d + 4 * n * n; }

// FlashAttention's Algorithm 1, in closed form: blocks of B_c = ceil(M / 4d)
// keys and B_r = min(B_c, d) queries. O, l, m are initialised in slow memory
// (n (d + 2)); each key block is read once (2 n d in all); for each of the
// T_c key blocks every query row reads Q_i, O_i, l_i, m_i and writes O_i, l_i,
// m_i back: 3 d + 4 floats per row.
static double io_flash(double n, double d, double m_fast) {
    double bc = ceil(m_fast / (4 * d)), tc = ceil(n / bc);
    return n * (d + 2) + 2 * n * d + tc * n * (3 * d + 4);
}

// The same count by walking Algorithm 1's loops block by block.
static double io_flash_loops(int n, int d, int m_fast) {
    int bc = (m_fast + 4 * d - 1) / (4 * d), br = bc < d ? bc : d;
    double moved = (double)n * (d + 2);                  // initialise O, l, m
    for (int j0 = 0; j0 < n; j0 += bc) {
        int cols = n - j0 < bc ? n - j0 : bc;
        moved += 2.0 * cols * d;                         // load K_j, V_j
        for (int i0 = 0; i0 < n; i0 += br) {
            int rows = n - i0 < br ? n - i0 : br;
            moved += 2.0 * rows * d + 2.0 * rows;        // load Q_i, O_i, l_i, m_i
            moved += (double)rows * d + 2.0 * rows;      // write O_i, l_i, m_i
        }
    }
    return moved;
}

static void section_bytes_moved(report_t *r) {
    enum { IO_D = 64, IO_M = 32768, IO_LO = 256, IO_HI = 8192 };
    report_section(r, "bytes moved");
    printf("one head, d = %d; fast memory M = %d floats (B_c = %d keys, B_r = %d\n"
           "queries); floats moved between slow and fast memory:\n", IO_D, IO_M,
           (IO_M + 4 * IO_D - 1) / (4 * IO_D), IO_D);
    printf("%6s %14s %14s %8s %14s\n", "n", "standard", "flash", "ratio",
           "flash M/n^2d^2");
    FILE *f = report_data(r, "io.dat");
    if (f)
        fprintf(f, "# n  floats moved: standard  flash (M = %d, d = %d)\n", IO_M, IO_D);
    int loops_agree = 1;
    double ratio_4096 = 0.0;
    for (int n = IO_LO; n <= IO_HI; n *= 2) {
        double s = io_standard(n, IO_D), fl = io_flash(n, IO_D, IO_M);
        loops_agree &= fl == io_flash_loops(n, IO_D, IO_M);
        if (n == 4096) ratio_4096 = s / fl;
        if (f) fprintf(f, "%d %.0f %.0f\n", n, s, fl);
        printf("%6d %14.0f %14.0f %8.2f %14.2f\n", n, s, fl, s / fl,
               fl * IO_M / ((double)n * n * IO_D * IO_D));
    }
    report_data_close(r, f);
    for (int n = 1; n <= 700; n += 3)                    // also n not a block multiple
        loops_agree &= io_flash(n, 16, 1000) == io_flash_loops(n, 16, 1000);
    printf("as n grows the ratio tends to M / 3 d^2 = %.2f: flash moves\n"
           "Theta(n^2 d^2 / M) floats, standard Theta(n d + n^2)\n",
           IO_M / (3.0 * IO_D * IO_D));
    report_check_true(r, "closed form == Algorithm 1's loops, counted", loops_agree);
    report_value(r, "io_m_floats", "%.0f", IO_M);
    report_value(r, "io_d", "%.0f", IO_D);
    report_value(r, "io_ratio_4096", "%.2f", ratio_4096);
    report_value(r, "io_ratio_limit", "%.2f", IO_M / (3.0 * IO_D * IO_D));
}

// Tiles (TILED_BQ queries x TILED_BK keys) the causal kernel computes: a key
// tile is needed while its first key j0 is at most the block's last query.
static void causal_tiles(int n, long *computed, long *by_hand) {
    *computed = *by_hand = 0;
    for (int i0 = 0; i0 < n; i0 += TILED_BQ) {
        int last = (i0 + TILED_BQ < n ? i0 + TILED_BQ : n) - 1;
        *computed += last / TILED_BK + 1;                // tiles j0 <= last
        for (int j0 = 0; j0 < n; j0 += TILED_BK) {       // any (i, j) with j <= i?
            int any = 0;
            for (int i = i0; i <= last && !any; i++) any = j0 <= i;
            *by_hand += any;
        }
    }
}

static void section_causal_tiles(report_t *r, uint64_t seed) {
    enum { CT_N = 4096, CHECK_N = 300, CHECK_D = 32 };
    long computed, by_hand;
    causal_tiles(CT_N, &computed, &by_hand);
    long tiles = (long)((CT_N + TILED_BQ - 1) / TILED_BQ) *
                 ((CT_N + TILED_BK - 1) / TILED_BK);
    double skip = 100.0 * (tiles - computed) / tiles;
    rng_t rng;
    rng_seed(&rng, seed);
    const int n = CHECK_N, d = CHECK_D;
    float *q = normal_floats(&rng, (long)n * d, 1.0f);
    float *k = normal_floats(&rng, (long)n * d, 1.0f);
    float *v = normal_floats(&rng, (long)n * d, 1.0f);
    float *out = xfloats(PROG, (size_t)n * d), *want = xfloats(PROG, (size_t)n * d);
    float *w = xfloats(PROG, (size_t)n * n);
    unsigned char *causal = xmalloc(PROG, (size_t)n * n);
    mask_causal(causal, n);
    xok(PROG, tiled_attention_causal(q, k, v, out, 1, n, n, d, d),
        "tiled_attention_causal");
    attention_forward(q, k, v, causal, want, w, n, n, d, d);
    double diff = mat_max_abs_diff(out, want, (size_t)n * d);
    report_section(r, "causal tiles");
    printf("n = %d, tiles of %d queries x %d keys: %ld tiles, %ld computed,\n"
           "%ld wholly above the diagonal and skipped (%.1f %%)\n", CT_N, TILED_BQ,
           TILED_BK, tiles, computed, tiles - computed, skip);
    report_check_true(r, "the kernel's rule == tiles with a visible entry, by hand",
                      computed == by_hand);
    report_check(r, "causal tiled == masked standard attention (n = 300)", diff, 1e-5);
    report_value(r, "flash_causal_skip_pct", "%.1f", skip);
    report_value(r, "flash_causal_n", "%.0f", CT_N);
    free(q), free(k), free(v), free(out), free(want), free(w), free(causal);
}

// The three FlashAttention sections, on generators of their own (so that the
// sections after them see the same random numbers as before they existed).
static void section_flash(report_t *r, uint64_t seed) {
    section_flash_backward(r, seed + 11);
    section_bytes_moved(r);
    section_causal_tiles(r, seed + 12);
}

// Seconds per call (the best of a few) of one kernel on one head of n x d.
static double fast_time(int kernel, const float *q, const float *k, const float *v,
                        float *out, float *w, int n, int d) {
    double best = INFINITY, total = 0.0;
    for (int rep = 0; rep < 50 && (rep < 3 || total < 0.05); rep++) {
        double t0 = clock_wall_seconds();
        if (kernel == 0) attention_forward(q, k, v, NULL, out, w, n, n, d, d);
        else if (kernel == 1)
            online_attention(q, k, v, NULL, out, n, n, d, d, ONLINE_BLOCK);
        else tiled_attention_forward(q, k, v, out, 1, n, n, d, d);
        double t = clock_wall_seconds() - t0;
        total += t;
        if (t < best) best = t;
        if (best > 0.2) break;
    }
    return best;
}

// The three exact kernels, one idea apart, timed at a few n (d = 64).
// n = 256, 512, 1024, up to max_dense and max_n (n = 256 always)
static void section_measured_fast(report_t *r, rng_t *rng, long max_dense, long max_n) {
    static const int NS[] = {256, 512, 1024};
    report_section(r, "measured: from loops to a fast kernel");
    machine_label();
    printf("one head, d = %d; GFLOP/s = 4 n^2 d / seconds; 1 thread\n", FAST_D);
    printf("%6s %9s %8s %9s %8s %9s %8s\n", "n", "standard", "GFLOP/s", "online",
           "GFLOP/s", "tiled", "GFLOP/s");
    FILE *f = report_data(r, "measured_fast.dat");
    if (f) fprintf(f, "# n  GFLOP/s: standard online tiled\n");
    int stop = 0;
    for (size_t i = 0; i < sizeof NS / sizeof NS[0] && !stop; i++) {
        if (i > 0 && (NS[i] > max_dense || NS[i] > max_n)) break;
        const int n = NS[i], d = FAST_D;
        float *q = normal_floats(rng, (long)n * d, 1.0f),
              *k = normal_floats(rng, (long)n * d, 1.0f);
        float *v = normal_floats(rng, (long)n * d, 1.0f),
              *out = xfloats(PROG, (size_t)n * d);
        float *w = xfloats(PROG, (size_t)n * n);
        double gf[3];
        printf("%6d", n);
        for (int kk = 0; kk < 3; kk++) {
            double t = fast_time(kk, q, k, v, out, w, n, d);
            gf[kk] = 4.0 * n * n * d / t / 1e9;
            printf(" %9.2e %8.2f", t, gf[kk]);
            if (t > 0.5) stop = 1;   // slow machine or valgrind: stop growing n
        }
        printf("\n");
        if (f) fprintf(f, "%d %.4f %.4f %.4f\n", n, gf[0], gf[1], gf[2]);
        free(q); free(k); free(v); free(out); free(w);
    }
    report_data_close(r, f);
}

int main(int argc, char **argv) {
    long max_dense = 2048, max_n = SWEEP_HI, max_reach = SWEEP_HI;
    const cli_opt_t opts[] = {
        {.name = "--max-dense", .meta = "N", .kind = CLI_INT, .ival = &max_dense,
         .help = "largest n timed for the O(n^2) variants", .min = 16, .max = 8192},
        {.name = "--max-n", .meta = "N", .kind = CLI_INT, .ival = &max_n,
         .help = "largest n timed for any variant", .min = 16, .max = SWEEP_HI},
        {.name = "--max-reach", .meta = "N", .kind = CLI_INT, .ival = &max_reach,
         .help = "largest n of the two-step reach check", .min = 16, .max = SWEEP_HI},
    };
    cli_t cli = {.program = PROG, .opts = opts, .n_opts = 3, .seed = 42,
                 .summary = "Chapter 5: attention variants and what they cost."};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);   // --help, bad options: exit
    if (rc >= 0) return rc;
    rng_t rng;
    rng_seed(&rng, cli.seed);

    section_distances(&r);
    section_relative(&r, &rng);
    section_sparse_pattern(&r);
    section_sparse_costs(&r, &rng);
    section_local(&r, &rng);
    section_hard(&r, &rng);
    section_linear_exact(&r, &rng);
    section_linear_error(&r, &rng);
    section_online_trace(&r);
    section_online_exact(&r, &rng);
    section_counted(&r, max_reach);
    section_fast_exact(&r, &rng);
    section_flash(&r, cli.seed);
    section_measured(&r, &rng, max_dense, max_n);
    section_measured_fast(&r, &rng, max_dense, max_n);
    return report_close(&r) == 0 ? 0 : 1;
}
