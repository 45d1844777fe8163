// test_rope.c -- rotary position embedding.
//
// Suites are named after the function they test; rope_apply is a graded
// exercise.
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "base/rng.h"
#include "position/rope.h"

// d = 2: one pair, theta_0 = 1. x = (1, 0) at position 1 turns by 1 radian to
// (cos 1, sin 1) = (0.540302, 0.841471); at position 2 to (-0.416147, 0.909297).
Test(rope_apply, hand_values_d2) {
    float x[3 * 2] = {1, 0, 1, 0, 1, 0};
    cr_assert_eq(rope_apply(x, 3, 2, 0, 10000), 0);
    cr_assert_float_eq(x[0], 1.0f, 1e-7);
    cr_assert_float_eq(x[1], 0.0f, 1e-7);
    cr_assert_float_eq(x[2], 0.540302f, 1e-6);
    cr_assert_float_eq(x[3], 0.841471f, 1e-6);
    cr_assert_float_eq(x[4], -0.416147f, 1e-6);
    cr_assert_float_eq(x[5], 0.909297f, 1e-6);
}

// d = 4: pair 1 turns at theta_1 = 10000^(-2/4) = 0.01 rad per position.
// (0, 1) at position 100 turns by 1 radian: (-sin 1, cos 1).
Test(rope_apply, second_pair_is_slower) {
    float x[4] = {0, 0, 0, 1};
    cr_assert_eq(rope_apply(x, 1, 4, 100, 10000), 0);
    cr_assert_float_eq(x[2], -0.841471f, 1e-6);
    cr_assert_float_eq(x[3], 0.540302f, 1e-6);
}

static void random_vec(float *x, int n, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_normal(&rng, x, n, 0, 1);
}

static double dot(const float *a, const float *b, int d) {
    double s = 0.0;
    for (int c = 0; c < d; c++) s += (double)a[c] * b[c];
    return s;
}

// The RoPE property: (R_m q) . (R_n k) depends only on m - n.
Test(rope_apply, score_depends_on_m_minus_n_only) {
    enum { D = 32 };
    float q[D], k[D], qa[D], ka[D], qb[D], kb[D];
    random_vec(q, D, 1);
    random_vec(k, D, 2);
    const long pairs[][2] = {{0, 0}, {5, 2}, {2, 5}, {40, 1}, {1000, 3}, {7, 7}};
    for (int t = 0; t < 6; t++) {
        long m = pairs[t][0], n = pairs[t][1];
        memcpy(qb, q, sizeof q), memcpy(kb, k, sizeof k);
        rope_apply(qb, 1, D, m - n, 10000), rope_apply(kb, 1, D, 0, 10000);
        double ref = dot(qb, kb, D);          // the same pair moved to (m - n, 0)
        for (long shift = 0; shift <= 3000; shift += 1000) {
            memcpy(qa, q, sizeof q), memcpy(ka, k, sizeof k);
            rope_apply(qa, 1, D, m + shift, 10000),
                    rope_apply(ka, 1, D, n + shift, 10000);
            cr_assert_float_eq(dot(qa, ka, D), ref, 1e-5, "m %ld n %ld +%ld", m, n,
                               shift);
        }
    }
}

// Rotations keep lengths; position 0 changes nothing; a turn back undoes.
Test(rope_apply, length_identity_inverse) {
    enum { N = 5, D = 12 };
    float x[N * D], y[N * D];
    random_vec(x, N * D, 4);
    memcpy(y, x, sizeof x);
    cr_assert_eq(rope_apply(y, N, D, 17, 10000), 0);
    for (int r = 0; r < N; r++)
        cr_assert_float_eq(sqrt(dot(y + r * D, y + r * D, D)),
                           sqrt(dot(x + r * D, x + r * D, D)), 1e-5);
    for (int r = 0; r < N; r++) rope_apply(y + r * D, 1, D, -(17 + r), 10000);
    for (int e = 0; e < N * D; e++) cr_assert_float_eq(y[e], x[e], 1e-5);
    memcpy(y, x, sizeof x);
    rope_apply(y, 1, D, 0, 10000);
    for (int e = 0; e < D; e++) cr_assert_eq(y[e], x[e]);
}

// Naive == efficient: the pairwise rotation equals the (d, d) matrix R_pos.
Test(rope_apply, equals_matrix) {
    enum { D = 10 };
    float x[D], y[D], r[D * D];
    random_vec(x, D, 5);
    for (long pos = 0; pos < 300; pos += 37) {
        memcpy(y, x, sizeof x);
        rope_apply(y, 1, D, pos, 10000);
        cr_assert_eq(rope_matrix(r, D, pos, 10000), 0);
        for (int i = 0; i < D; i++) {
            double s = 0.0;
            for (int j = 0; j < D; j++) s += (double)r[i * D + j] * x[j];
            cr_assert_float_eq(y[i], s, 1e-5, "pos %ld row %d", pos, i);
        }
    }
}

Test(rope_apply, errors_leave_x_alone) {
    float x[6] = {1, 2, 3, 4, 5, 6};
    cr_assert_eq(rope_apply(x, 2, 3, 1, 10000), -1);    // odd d
    cr_assert_eq(rope_apply(x, -1, 2, 1, 10000), -1);
    cr_assert_eq(rope_apply(x, 1, 2, 1, 0.0), -1);
    cr_assert_eq(rope_apply(x, 0, 2, 1, 10000), 0);     // n = 0: nothing
    for (int e = 0; e < 6; e++) cr_assert_eq(x[e], (float)(e + 1));
}

Test(rope_theta, values) {
    float t[4];
    cr_assert_eq(rope_theta(t, 8, 10000), 0);
    const double want[4] = {1.0, 0.1, 0.01, 0.001};   // 10000^(-2i/8)
    for (int i = 0; i < 4; i++) cr_assert_float_eq(t[i], want[i], 1e-7);
    cr_assert_eq(rope_theta(t, 7, 10000), -1);
}

// At distance 0 every term is 1: |S_j| = j, and the bound is (d/2 + 1) / 2.
// It is symmetric in the sign of the distance and smaller far away.
Test(rope_decay_bound, values) {
    cr_assert_float_eq(rope_decay_bound(128, 0, 10000), 32.5, 1e-9);
    cr_assert_float_eq(rope_decay_bound(2, 5, 10000), 1.0, 1e-12);   // one term
    cr_assert_float_eq(rope_decay_bound(64, 9, 10000), rope_decay_bound(64, -9, 10000),
                       1e-9);
    cr_assert(rope_decay_bound(128, 300, 10000) < rope_decay_bound(128, 0, 10000) / 3);
    cr_assert_eq(rope_decay_bound(3, 1, 10000), 0.0);
}
