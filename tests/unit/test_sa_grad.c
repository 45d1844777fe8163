// test_sa_grad.c -- self-attention's backward pass: dV, dS, dW_V and dW_Q (all
// four are graded tasks).
//
// The reference forward pass runs in double, keys outer where the library goes
// queries outer; every gradient is checked against central differences of a
// loss r . out computed by that reference, or of the piece it differentiates.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "attention/sa_grad.h"
#include "base/rng.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 66, DMAX = 6 };

static void fill(rng_t *rng, float *x, int n, float std) {
    for (int i = 0; i < n; i++) x[i] = std * rng_normal(rng);
}

// a (n, m): softmax rows of random scores, causal (j > i hidden) when asked.
static void random_weights(rng_t *rng, float *a, int n, int m, int causal) {
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int j = 0; j < m; j++) {
            double e = causal && j > i ? 0.0 : exp(1.5 * rng_normal(rng));
            a[i * m + j] = (float)e;
            sum += e;
        }
        for (int j = 0; j < m; j++) a[i * m + j] = (float)(a[i * m + j] / sum);
    }
}

// ---------------------------------------------------------------------------
// dV = A^T dout

// A = [[1, 0], [0.25, 0.75]], dout = [[1, 2], [4, 8]]: dV = [[2, 4], [3, 6]].
Test(sa_grad, values_by_hand) {
    const float a[4] = {1, 0, 0.25f, 0.75f}, g[4] = {1, 2, 4, 8};
    float dv[5] = {0, 0, 0, 0, 7};
    sagrad_values(a, g, dv, 2, 2, 2);
    const float want[4] = {2, 4, 3, 6};
    for (int i = 0; i < 4; i++) cr_assert_float_eq(dv[i], want[i], 1e-6, "dv[%d]", i);
    cr_assert_eq(dv[4], 7.0f);
}

// Random rectangular shapes (one query, one key, 64 keys) from the grading seed;
// dv starts at 0.5 and must be added to.
Test(sa_grad, values_random_accumulate_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int shapes[][3] = {{1, 1, 1}, {1, 5, 3}, {7, 1, 2}, {5, 3, 4},
                                    {3, 64, 2}, {9, 9, 5}};
    for (int c = 0; c < 6; c++) {
        int n = shapes[c][0], m = shapes[c][1], d = shapes[c][2];
        float a[9 * 64], g[9 * DMAX], dv[64 * DMAX];
        random_weights(&rng, a, n, m, 0);
        fill(&rng, g, n * d, 1);
        for (int i = 0; i < m * d; i++) dv[i] = 0.5f;
        sagrad_values(a, g, dv, n, m, d);
        for (int j = 0; j < m; j++)
            for (int k = 0; k < d; k++) {
                double want = 0.5;
                for (int i = n - 1; i >= 0; i--)
                    want += (double)a[i * m + j] * g[i * d + k];
                cr_assert(fabs(dv[j * d + k] - want) <= 1e-5,
                          "n %d m %d d_v %d: dv[%d][%d] = %g, want %g", n, m, d, j, k,
                          (double)dv[j * d + k], want);
            }
    }
}

// ---------------------------------------------------------------------------
// dS through the softmax: L = r . (softmax(scale S) V), hidden keys at -inf

static double loss_scores(const float *s, const unsigned char *mask, const float *v,
                          const float *r, int n, int m, int d, double scale) {
    double l = 0;
    for (int i = 0; i < n; i++) {
        double max = -INFINITY, sum = 0, p[NMAX];
        for (int j = 0; j < m; j++)
            if (mask[i * m + j]) max = fmax(max, scale * s[i * m + j]);
        for (int j = 0; j < m; j++)
            sum += p[j] = mask[i * m + j] ? exp(scale * s[i * m + j] - max) : 0.0;
        for (int j = 0; j < m; j++)
            for (int k = 0; k < d; k++) l += r[i * d + k] * p[j] / sum * v[j * d + k];
    }
    return l;
}

static void check_scores(rng_t *rng, int n, int m, int d, int causal, double scale) {
    float s[9 * NMAX], v[NMAX * DMAX], r[9 * DMAX], a[9 * NMAX], ds[9 * NMAX];
    unsigned char mask[9 * NMAX];
    fill(rng, s, n * m, 1);
    fill(rng, v, m * d, 1);
    fill(rng, r, n * d, 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) mask[i * m + j] = !causal || j <= i;
    for (int i = 0; i < n; i++) {   // a = the masked softmax of scale * s
        double max = -INFINITY, sum = 0;
        for (int j = 0; j < m; j++)
            if (mask[i * m + j]) max = fmax(max, scale * s[i * m + j]);
        for (int j = 0; j < m; j++)
            sum += mask[i * m + j] ? exp(scale * s[i * m + j] - max) : 0.0;
        for (int j = 0; j < m; j++)
            a[i * m + j] = mask[i * m + j]
                               ? (float)(exp(scale * s[i * m + j] - max) / sum)
                               : 0.0f;
    }
    for (int i = 0; i < n * m; i++) ds[i] = NAN;
    sagrad_scores(a, v, r, ds, n, m, d, (float)scale);
    for (int i = 0; i < n * m; i++) {
        float keep = s[i];
        s[i] = keep + 1e-2f;
        double up = loss_scores(s, mask, v, r, n, m, d, scale);
        s[i] = keep - 1e-2f;
        double down = loss_scores(s, mask, v, r, n, m, d, scale);
        s[i] = keep;
        double fd = (up - down) / 2e-2;
        cr_assert(fabs(ds[i] - fd) <= 2e-3 + 1e-2 * fabs(fd),
                  "n %d m %d d_v %d scale %g: ds[%d][%d] = %g, finite difference %g",
                  n, m, d, scale, i / m, i % m, (double)ds[i], fd);
    }
}

Test(sa_grad, scores_match_finite_differences) {
    rng_t rng;
    rng_seed(&rng, 11);
    check_scores(&rng, 3, 4, 2, 0, 0.5);
}

// Causal and full rows, one key, 64 keys, scales from the grading seed.
Test(sa_grad, scores_random_causal_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 1);
    static const int shapes[][4] = {{1, 1, 1, 0}, {4, 4, 3, 1}, {5, 5, 2, 1},
                                    {2, 7, 3, 0}, {2, 64, 2, 0}, {7, 7, 1, 1}};
    for (int c = 0; c < 6; c++)
        check_scores(&rng, shapes[c][0], shapes[c][1], shapes[c][2], shapes[c][3],
                     0.2 + rng_uniform(&rng));
}

// ---------------------------------------------------------------------------
// dW_V and dW_Q of the whole layer

// out = softmax(Q K^T / sqrt(d_k)) X W_V in double; returns r . out.
static double loss_layer(const sagrad_in_t *in, const float *r) {
    int n = in->n, dm = in->d_model, dk = in->d_k, dv = in->d_v;
    static double q[NMAX * DMAX], k[NMAX * DMAX], v[NMAX * DMAX];
    for (int c = 0; c < dk; c++)   // columns outer
        for (int i = 0; i < n; i++) {
            q[i * dk + c] = k[i * dk + c] = 0;
            for (int t = 0; t < dm; t++) {
                q[i * dk + c] += (double)in->x[i * dm + t] * in->w_q[t * dk + c];
                k[i * dk + c] += (double)in->x[i * dm + t] * in->w_k[t * dk + c];
            }
        }
    for (int c = 0; c < dv; c++)
        for (int i = 0; i < n; i++) {
            v[i * dv + c] = 0;
            for (int t = 0; t < dm; t++)
                v[i * dv + c] += (double)in->x[i * dm + t] * in->w_v[t * dv + c];
        }
    double l = 0;
    for (int i = 0; i < n; i++) {
        double e[NMAX], max = -INFINITY, sum = 0;
        int last = in->causal ? i : n - 1;
        for (int j = 0; j <= last; j++) {
            e[j] = 0;
            for (int c = 0; c < dk; c++) e[j] += q[i * dk + c] * k[j * dk + c];
            e[j] /= sqrt((double)dk);
            max = fmax(max, e[j]);
        }
        for (int j = 0; j <= last; j++) sum += e[j] = exp(e[j] - max);
        for (int j = 0; j <= last; j++)
            for (int c = 0; c < dv; c++)
                l += r[i * dv + c] * e[j] / sum * v[j * dv + c];
    }
    return l;
}

typedef struct {
    sagrad_in_t in;
    float x[NMAX * DMAX], wq[DMAX * DMAX], wk[DMAX * DMAX], wv[DMAX * DMAX];
    float r[NMAX * DMAX];
} layer_t;

static void random_layer(rng_t *rng, layer_t *L, int n, int dm, int dk, int dv,
                         int causal) {
    fill(rng, L->x, n * dm, 1);
    fill(rng, L->wq, dm * dk, 0.8f);
    fill(rng, L->wk, dm * dk, 0.8f);
    fill(rng, L->wv, dm * dv, 0.8f);
    fill(rng, L->r, n * dv, 1);
    L->in = (sagrad_in_t){n, dm, dk, dv, causal, L->x, L->wq, L->wk, L->wv};
}

// The weights of the reference forward pass, for sagrad_wv's input.
static void layer_weights(const layer_t *L, float *a) {
    const sagrad_in_t *in = &L->in;
    int n = in->n, dm = in->d_model, dk = in->d_k;
    for (int i = 0; i < n; i++) {
        double e[NMAX], max = -INFINITY, sum = 0;
        for (int j = 0; j < n; j++) {
            e[j] = 0;
            for (int c = 0; c < dk; c++) {
                double qc = 0, kc = 0;
                for (int t = 0; t < dm; t++) {
                    qc += (double)in->x[i * dm + t] * in->w_q[t * dk + c];
                    kc += (double)in->x[j * dm + t] * in->w_k[t * dk + c];
                }
                e[j] += qc * kc / sqrt((double)dk);
            }
            if (!in->causal || j <= i) max = fmax(max, e[j]);
        }
        for (int j = 0; j < n; j++)
            sum += e[j] = !in->causal || j <= i ? exp(e[j] - max) : 0;
        for (int j = 0; j < n; j++) a[i * n + j] = (float)(e[j] / sum);
    }
}

// Central differences of r . out in w (the layer's w_q or w_v) against g - start.
static void check_weights(layer_t *L, float *w, int count, const float *g, float start,
                          const char *what) {
    for (int i = 0; i < count; i++) {
        float keep = w[i];
        w[i] = keep + 1e-2f;
        double up = loss_layer(&L->in, L->r);
        w[i] = keep - 1e-2f;
        double down = loss_layer(&L->in, L->r);
        w[i] = keep;
        double fd = (up - down) / 2e-2, got = g[i] - start;
        cr_assert(fabs(got - fd) <= 3e-3 + 1e-2 * fabs(fd),
                  "n %d d_model %d d_k %d d_v %d causal %d: %s[%d] = %g, finite "
                  "difference %g", L->in.n, L->in.d_model, L->in.d_k, L->in.d_v,
                  L->in.causal, what, i, got, fd);
    }
}

static void check_wv(layer_t *L, float start) {
    static float a[NMAX * NMAX];
    float g[DMAX * DMAX];
    layer_weights(L, a);
    for (int i = 0; i < DMAX * DMAX; i++) g[i] = start;
    sagrad_wv(L->x, a, L->r, g, L->in.n, L->in.d_model, L->in.d_v);
    check_weights(L, L->wv, L->in.d_model * L->in.d_v, g, start, "dwv");
}

Test(sa_grad, wv_matches_finite_differences) {
    rng_t rng;
    rng_seed(&rng, 5);
    static layer_t L;
    random_layer(&rng, &L, 4, 3, 2, 2, 0);
    check_wv(&L, 0.0f);
}

// Shapes from the grading seed (one token, odd widths, 64 tokens), causal or not;
// dwv starts at 0.5.
Test(sa_grad, wv_random_accumulate_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 2);
    static const int shapes[][5] = {{1, 1, 1, 1, 0}, {3, 5, 2, 3, 1}, {6, 2, 3, 1, 0},
                                    {64, 2, 2, 2, 1}, {7, 3, 1, 5, 1}};
    static layer_t L;
    for (int c = 0; c < 5; c++) {
        const int *s = shapes[c];
        random_layer(&rng, &L, s[0], s[1], s[2], s[3], s[4]);
        check_wv(&L, 0.5f);
    }
}

static void check_wq(layer_t *L, float start) {
    float g[DMAX * DMAX];
    for (int i = 0; i < DMAX * DMAX; i++) g[i] = start;
    cr_assert_eq(sagrad_wq(&L->in, L->r, g), 0);
    check_weights(L, L->wq, L->in.d_model * L->in.d_k, g, start, "dwq");
}

Test(sa_grad, wq_matches_finite_differences) {
    rng_t rng;
    rng_seed(&rng, 9);
    static layer_t L;
    random_layer(&rng, &L, 4, 3, 2, 3, 0);
    check_wq(&L, 0.0f);
}

// Causal layers from the grading seed: one token (dW_Q = 0), odd widths, 64 tokens;
// dwq starts at 0.5.
Test(sa_grad, wq_random_causal_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 3);
    static const int shapes[][5] = {{1, 2, 2, 1, 1}, {5, 3, 3, 2, 1}, {3, 4, 1, 3, 1},
                                    {64, 2, 2, 1, 1}, {6, 5, 3, 2, 0}};
    static layer_t L;
    for (int c = 0; c < 5; c++) {
        const int *s = shapes[c];
        random_layer(&rng, &L, s[0], s[1], s[2], s[3], s[4]);
        check_wq(&L, 0.5f);
    }
}
