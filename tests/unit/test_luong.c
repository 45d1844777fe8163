// test_luong.c -- Luong's general attention score: scores, attention, backward.
//
// All three functions are graded tasks. The tests compute their own reference
// in double (u = s^T W first, then u . h_t: the product the other way round),
// so that the backward's finite differences do not depend on the forward task.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "layers/luong.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { TMAX = 9, SMAX = 7, KMAX = 8 };

// The reference: e (T,), alpha (T,), c (K,) in double.
static void ref_attend(const luong_dims_t *d, const float *s, const float *w,
                       const float *ann, const unsigned char *mask, double *e,
                       double *alpha, double *c) {
    double u[KMAX] = {0}, max = -INFINITY, sum = 0.0;
    for (int b = 0; b < d->k; b++)
        for (int a = 0; a < d->sd; a++) u[b] += (double)s[a] * w[a * d->k + b];
    for (int t = 0; t < d->t_len; t++) {
        e[t] = 0.0;
        for (int b = 0; b < d->k; b++) e[t] += u[b] * ann[t * d->k + b];
        if ((!mask || mask[t]) && e[t] > max) max = e[t];
    }
    for (int t = 0; t < d->t_len; t++)
        sum += alpha[t] = (!mask || mask[t]) ? exp(e[t] - max) : 0.0;
    for (int t = 0; t < d->t_len; t++) alpha[t] = sum > 0 ? alpha[t] / sum : 0.0;
    for (int b = 0; b < d->k; b++) {
        c[b] = 0.0;
        for (int t = 0; t < d->t_len; t++) c[b] += alpha[t] * ann[t * d->k + b];
    }
}

// s = (1, 2), W = [[1, 0, 1], [0, 1, -1]]: s^T W = (1, 2, -1);
// h_0 = (1, 1, 1) -> 2, h_1 = (0, 1, 3) -> -1.
Test(luong, scores_by_hand) {
    const luong_dims_t d = {2, 2, 3};
    const float s[2] = {1, 2}, w[6] = {1, 0, 1, 0, 1, -1}, ann[6] = {1, 1, 1, 0, 1, 3};
    float e[3] = {7, 7, 7};
    luong_general_scores(&d, s, w, ann, e);
    cr_assert_float_eq(e[0], 2.0f, 1e-6);
    cr_assert_float_eq(e[1], -1.0f, 1e-6);
    cr_assert_eq(e[2], 7.0f);
}

static inline void random_case(rng_t *rng, luong_dims_t *d, float *s, float *w,
                               float *ann, unsigned char *mask) {
    d->t_len = 1 + (int)(rng_uniform(rng) * TMAX);
    d->sd = 1 + (int)(rng_uniform(rng) * SMAX);
    d->k = 1 + (int)(rng_uniform(rng) * KMAX);
    rng_fill_normal(rng, s, d->sd, 0, 1);
    rng_fill_normal(rng, w, d->sd * d->k, 0, 0.7f);
    rng_fill_normal(rng, ann, d->t_len * d->k, 0, 1);
    for (int t = 0; t < d->t_len; t++) mask[t] = rng_uniform(rng) < 0.7;
}

Test(luong, scores_random_sizes) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 20; c++) {
        luong_dims_t d;
        float s[SMAX], w[SMAX * KMAX], ann[TMAX * KMAX], e[TMAX];
        unsigned char mask[TMAX];
        random_case(&rng, &d, s, w, ann, mask);
        double re[TMAX], ra[TMAX], rc[KMAX];
        ref_attend(&d, s, w, ann, NULL, re, ra, rc);
        luong_general_scores(&d, s, w, ann, e);
        for (int t = 0; t < d.t_len; t++)
            cr_assert(fabs(e[t] - re[t]) <= 1e-4 * (1 + fabs(re[t])),
                      "T %d S %d K %d: e[%d] = %g, want %g", d.t_len, d.sd, d.k, t,
                      (double)e[t], re[t]);
    }
}

// The same s, W, annotations as scores_by_hand: e = (2, -1), alpha = softmax;
// hiding position 0 puts all weight on h_1.
Test(luong, attend_by_hand) {
    const luong_dims_t d = {2, 2, 3};
    const float s[2] = {1, 2}, w[6] = {1, 0, 1, 0, 1, -1}, ann[6] = {1, 1, 1, 0, 1, 3};
    float alpha[2], c[3];
    luong_general_attend(&d, s, w, ann, NULL, alpha, c);
    double a0 = 1.0 / (1.0 + exp(-3.0));
    cr_assert_float_eq(alpha[0], a0, 1e-6);
    cr_assert_float_eq(alpha[1], 1.0 - a0, 1e-6);
    cr_assert_float_eq(c[0], a0, 1e-6);
    cr_assert_float_eq(c[2], a0 + 3.0 * (1.0 - a0), 1e-5);
    const unsigned char mask[2] = {0, 1};
    luong_general_attend(&d, s, w, ann, mask, alpha, c);
    cr_assert_eq(alpha[0], 0.0f);
    cr_assert_float_eq(alpha[1], 1.0f, 1e-6);
    cr_assert_float_eq(c[2], 3.0f, 1e-6);
}

// Random sizes and masks (some all hidden: alpha = 0, c = 0), large scores too.
Test(luong, attend_random_masks) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 30; c++) {
        luong_dims_t d;
        float s[SMAX], w[SMAX * KMAX], ann[TMAX * KMAX], alpha[TMAX], ctx[KMAX];
        unsigned char mask[TMAX];
        random_case(&rng, &d, s, w, ann, mask);
        if (c % 10 == 9) memset(mask, 0, sizeof mask);
        if (c % 7 == 3)
            for (int a = 0; a < d.sd; a++) s[a] *= 1000.0f;   // exp overflows
        double re[TMAX], ra[TMAX], rc[KMAX];
        ref_attend(&d, s, w, ann, mask, re, ra, rc);
        for (int t = 0; t < d.t_len; t++) alpha[t] = NAN;
        luong_general_attend(&d, s, w, ann, mask, alpha, ctx);
        for (int t = 0; t < d.t_len; t++)
            cr_assert(fabs(alpha[t] - ra[t]) <= 1e-5,
                      "case %d: alpha[%d] = %g, want %g", c, t, (double)alpha[t],
                      ra[t]);
        for (int b = 0; b < d.k; b++)
            cr_assert(fabs(ctx[b] - rc[b]) <= 1e-4, "case %d: c[%d] = %g, want %g", c,
                      b, (double)ctx[b], rc[b]);
    }
}

// The loss r . c as a function of s, W and the annotations, by the reference.
typedef struct {
    luong_dims_t d;
    float *s, *w, *ann, *r;
    unsigned char *mask;
} fd_t;

static double fd_loss(const fd_t *f) {
    double e[TMAX], alpha[TMAX], c[KMAX], l = 0.0;
    ref_attend(&f->d, f->s, f->w, f->ann, f->mask, e, alpha, c);
    for (int b = 0; b < f->d.k; b++) l += f->r[b] * c[b];
    return l;
}

// Central differences of r . c against the analytic gradients (dc = r), which
// start from `start` and must be added to it.
static void check_backward(fd_t *f, float start) {
    const luong_dims_t *d = &f->d;
    double e[TMAX], ra[TMAX], rc[KMAX];
    float alpha[TMAX], ds[SMAX], dw[SMAX * KMAX], dann[TMAX * KMAX];
    ref_attend(d, f->s, f->w, f->ann, f->mask, e, ra, rc);
    for (int t = 0; t < d->t_len; t++) alpha[t] = (float)ra[t];
    for (int i = 0; i < SMAX * KMAX; i++) dw[i] = start;
    for (int i = 0; i < TMAX * KMAX; i++) dann[i] = start;
    for (int i = 0; i < SMAX; i++) ds[i] = start;
    luong_general_backward(d, f->s, f->w, f->ann, alpha, f->r, ds, dw, dann);
    struct { float *x, *g; int n; const char *name; } p[3] = {
        {f->s, ds, d->sd, "ds"}, {f->w, dw, d->sd * d->k, "dw"},
        {f->ann, dann, d->t_len * d->k, "dann"}};
    for (int q = 0; q < 3; q++)
        for (int i = 0; i < p[q].n; i++) {
            float keep = p[q].x[i];
            p[q].x[i] = keep + 1e-2f;
            double up = fd_loss(f);
            p[q].x[i] = keep - 1e-2f;
            double down = fd_loss(f);
            p[q].x[i] = keep;
            double fd = (up - down) / 2e-2, got = p[q].g[i] - start;
            cr_assert(fabs(fd - got) <= 2e-3 + 2e-2 * fabs(fd),
                      "T %d S %d K %d: %s[%d] = %g, finite difference %g", d->t_len,
                      d->sd, d->k, p[q].name, i, got, fd);
        }
}

Test(luong, backward_matches_finite_differences) {
    rng_t rng;
    rng_seed(&rng, 8);
    float s[SMAX], w[SMAX * KMAX], ann[TMAX * KMAX], r[KMAX];
    rng_fill_normal(&rng, s, SMAX, 0, 1);
    rng_fill_normal(&rng, w, SMAX * KMAX, 0, 0.7f);
    rng_fill_normal(&rng, ann, TMAX * KMAX, 0, 1);
    rng_fill_normal(&rng, r, KMAX, 0, 1);
    fd_t f = {{4, 3, 5}, s, w, ann, r, NULL};
    check_backward(&f, 0.0f);
}

// Random sizes and masks from the grading seed; the gradients start from 0.5
// and must be accumulated.
Test(luong, backward_random_masks_accumulate) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 12; c++) {
        float s[SMAX], w[SMAX * KMAX], ann[TMAX * KMAX], r[KMAX];
        unsigned char mask[TMAX];
        fd_t f = {{0, 0, 0}, s, w, ann, r, mask};
        random_case(&rng, &f.d, s, w, ann, mask);
        rng_fill_normal(&rng, r, f.d.k, 0, 1);
        check_backward(&f, 0.5f);
    }
}
