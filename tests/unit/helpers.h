// helpers.h -- what several unit tests share: float-array assertions, random
// inputs, row statistics. Header-only (every test is one .c file); include it
// after <criterion/criterion.h>.
#ifndef TEST_HELPERS_H
#define TEST_HELPERS_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/mat.h"
#include "base/rng.h"
#include "base/stats.h"

#ifndef EPS
#define EPS 1e-5f   // the usual tolerance for float results near 1
#endif

// got (n,) == want (n,) entry by entry within tol; a failure names the array
// (what) and the first index that differs.
static inline void assert_floats_near(const float *got, const float *want, int n,
                                      double tol, const char *what) {
    for (int i = 0; i < n; i++)
        cr_assert_float_eq(got[i], want[i], tol, "%s[%d] = %.9g, want %.9g", what, i,
                           (double)got[i], (double)want[i]);
}

// x (n,) <- N(0, std^2) samples from a generator seeded with seed.
static inline void random_fill(float *x, int n, uint64_t seed, float std) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_normal(&rng, x, n, 0.0f, std);
}

// size N(0, 1) samples from rng in a new buffer (free it).
static inline float *random_floats(rng_t *rng, size_t size) {
    float *x = malloc((size ? size : 1) * sizeof(float));
    cr_assert_not_null(x);
    rng_fill_normal(rng, x, (int)size, 0.0f, 1.0f);
    return x;
}

// w (rows, m) is row-stochastic: every weight in [0, 1], every row sums to 1
// within tol.
static inline void assert_row_stochastic(const float *w, int rows, int m, double tol) {
    for (int r = 0; r < rows; r++) {
        double s = 0.0;
        for (int j = 0; j < m; j++) {
            cr_assert(w[r * m + j] >= 0.0f && w[r * m + j] <= 1.0f, "w[%d][%d] = %g", r,
                      j, (double)w[r * m + j]);
            s += w[r * m + j];
        }
        cr_assert(fabs(s - 1.0) <= tol, "row %d sums to %.9f", r, s);
    }
}

// Population mean and variance of x (d,).
static inline void row_mean_var(const float *x, int d, double *mean, double *var) {
    stats_t s = stats_of(x, d);
    *mean = s.mean;
    *var = s.std * s.std;
}

// Finite differences for backward passes. loss(ctx) is a scalar function of the
// buffers ctx points into; check_grad_eps compares the analytic gradient g (size)
// with respect to x (size) against central differences with step eps.
typedef double (*loss_fn)(void *ctx);

static inline void check_grad_eps(const char *what, float *x, const float *g, int size,
                                  loss_fn loss, void *ctx, float eps) {
    for (int i = 0; i < size; i++) {
        float keep = x[i];
        x[i] = keep + eps;
        double up = loss(ctx);
        x[i] = keep - eps;
        double down = loss(ctx);
        x[i] = keep;
        double fd = (up - down) / (2.0 * eps);
        cr_assert(fabs(fd - g[i]) <= 3e-3 + 3e-2 * fabs(fd),
                  "%s[%d]: backward %.6g, finite difference %.6g", what, i, g[i], fd);
    }
}

// sum of r[i] * y[i]: the loss L = sum(r * y), whose gradient dL/dy is r.
static inline double dot_r(const float *r, const float *y, int size) {
    double acc = 0.0;
    for (int i = 0; i < size; i++) acc += (double)r[i] * y[i];
    return acc;
}

#endif
