// test_smooth.c -- label-smoothed cross-entropy and its gradient (graded tasks).
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/rng.h"
#include "train/smooth.h"
#include "train/xent.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

// logits (ln 3, 0): p = (3/4, 1/4). eps = 0.2, V = 2: q = (0.9, 0.1) for target 0,
// loss = -(0.9 ln 3/4 + 0.1 ln 1/4). The second row is ignored.
Test(smooth, forward_by_hand) {
    const float z[4] = {logf(3.0f), 0.0f, 5.0f, -5.0f};
    const int y[2] = {0, -1};
    float p[4];
    int count = -7;
    double loss = smooth_xent_forward(z, y, p, 2, 2, -1, 0.2f, &count);
    cr_assert_eq(count, 1);
    cr_assert_float_eq(loss, -(0.9 * log(0.75) + 0.1 * log(0.25)), 1e-6);
    cr_assert_float_eq(p[0], 0.75f, 1e-6);
}

// eps = 0 is the plain cross-entropy of xent_forward; eps = 1 the cross-entropy
// against the uniform distribution, -mean_j log p_j.
Test(smooth, forward_limits) {
    const float z[6] = {1, 2, 3, -1, 0.5f, 4};
    const int y[2] = {2, 0};
    float p[6], p2[6];
    int c1, c2;
    double plain = xent_forward(z, y, p2, 2, 3, -1, &c2);
    cr_assert_float_eq(smooth_xent_forward(z, y, p, 2, 3, -1, 0.0f, &c1), plain, 1e-6);
    double uniform = 0.0;
    for (int j = 0; j < 6; j++) uniform -= log(p2[j]) / 3.0;
    cr_assert_float_eq(smooth_xent_forward(z, y, p, 2, 3, -1, 1.0f, &c1), uniform,
                       1e-5);
    cr_assert(isnan(smooth_xent_forward(z, y, p, 2, 3, -1, 1.5f, &c1)));
}

// The reference: q written out, log softmax by log-sum-exp in double.
static inline double ref_loss(const float *z, const int *y, int n, int v, int ignore,
                              float eps) {
    double loss = 0.0;
    for (int i = 0; i < n; i++) {
        if (y[i] == ignore || y[i] < 0 || y[i] >= v) continue;
        double mx = z[i * v], sum = 0.0;
        for (int j = 1; j < v; j++) mx = fmax(mx, z[i * v + j]);
        for (int j = 0; j < v; j++) sum += exp(z[i * v + j] - mx);
        for (int j = 0; j < v; j++) {
            double q = (j == y[i] ? 1.0 - eps : 0.0) + (double)eps / v;
            loss -= q * (z[i * v + j] - mx - log(sum));
        }
    }
    return loss;
}

enum { NMAX = 9, VMAX = 40 };

// Random rows, widths, smoothing and ignored rows; logits of every scale.
Test(smooth, forward_random_rows) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 30; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * NMAX);
        int v = 1 + (int)(rng_uniform(&rng) * VMAX);
        float z[NMAX * VMAX], p[NMAX * VMAX];
        float eps = c % 5 == 0 ? 1.0f : rng_uniform(&rng);
        int y[NMAX], count, want_count = 0;
        rng_fill_normal(&rng, z, n * v, 0, c % 3 == 2 ? 300.0f : 2.0f);
        for (int i = 0; i < n; i++) {
            y[i] = rng_uniform(&rng) < 0.2 ? 99 : (int)(rng_uniform(&rng) * v);
            want_count += y[i] != 99;
        }
        double got = smooth_xent_forward(z, y, p, n, v, 99, eps, &count);
        double want = ref_loss(z, y, n, v, 99, eps);
        cr_assert_eq(count, want_count, "case %d", c);
        cr_assert(fabs(got - want) <= 1e-4 * (1 + fabs(want)),
                  "case %d (N %d, V %d, eps %g): loss %.9g, want %.9g", c, n, v,
                  (double)eps, got, want);
    }
}

// Same example as forward_by_hand: dz = scale (p - q) = 2 (-0.15, 0.15), added to 1.
Test(smooth, backward_by_hand) {
    const float p[4] = {0.75f, 0.25f, 0.5f, 0.5f};
    const int y[2] = {0, -1};
    float dz[4] = {1, 1, 1, 1};
    smooth_xent_backward(p, y, dz, 2, 2, -1, 0.2f, 2.0f);
    cr_assert_float_eq(dz[0], 1.0f - 0.3f, 1e-6);
    cr_assert_float_eq(dz[1], 1.0f + 0.3f, 1e-6);
    cr_assert_eq(dz[2], 1.0f);
    cr_assert_eq(dz[3], 1.0f);
}

// Central differences of scale times the reference loss, random sizes and eps;
// the gradient is added to what dlogits held.
Test(smooth, backward_matches_finite_differences) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 12; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 4), v = 1 + (int)(rng_uniform(&rng) * 12);
        float z[4 * 12], p[4 * 12], dz[4 * 12], eps = rng_uniform(&rng);
        float scale = 0.5f + rng_uniform(&rng);
        int y[4], count;
        rng_fill_normal(&rng, z, n * v, 0, 2);
        for (int i = 0; i < n; i++) y[i] = i == 1 ? -1 : (int)(rng_uniform(&rng) * v);
        smooth_xent_forward(z, y, p, n, v, -1, eps, &count);
        for (int i = 0; i < n * v; i++) dz[i] = 0.25f;
        smooth_xent_backward(p, y, dz, n, v, -1, eps, scale);
        for (int i = 0; i < n * v; i++) {
            float keep = z[i];
            z[i] = keep + 1e-2f;
            double up = ref_loss(z, y, n, v, -1, eps);
            z[i] = keep - 1e-2f;
            double down = ref_loss(z, y, n, v, -1, eps);
            z[i] = keep;
            double fd = scale * (up - down) / 2e-2, got = dz[i] - 0.25;
            cr_assert(fabs(fd - got) <= 1e-3 + 1e-2 * fabs(fd),
                      "case %d (N %d, V %d, eps %g): dz[%d] = %g, finite difference %g",
                      c, n, v, (double)eps, i, got, fd);
        }
    }
}
