// test_rope.c -- rotary position embedding.
//
// Suites are named after the function they test; rope_apply is a graded
// exercise.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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

// Scale 1 is rope_apply exactly; scale 1/2 at position 2p is rope_apply at p
// (the angle (2p * 0.5) theta_i is computed from the same double p).
Test(rope_apply_scaled, scale_one_and_half) {
    enum { N = 9, D = 16 };
    float a[N * D], b[N * D], c[N * D];
    rng_t rng;
    rng_seed(&rng, 5);
    rng_fill_normal(&rng, a, N * D, 0.0f, 1.0f);
    memcpy(b, a, sizeof a);
    memcpy(c, a, sizeof a);
    cr_assert_eq(rope_apply(a, N, D, 37, 10000), 0);
    cr_assert_eq(rope_apply_scaled(b, N, D, 37, 1.0, 10000), 0);
    cr_assert_eq(memcmp(a, b, sizeof a), 0, "scale 1 differs from rope_apply");
    for (int r = 0; r < N; r++) {        // row r at 2 (10 + r) / 2 == 10 + r
        float one[D], two[D];
        memcpy(one, c + r * D, sizeof one);
        memcpy(two, c + r * D, sizeof two);
        cr_assert_eq(rope_apply(one, 1, D, 10 + r, 10000), 0);
        cr_assert_eq(rope_apply_scaled(two, 1, D, 2 * (10 + r), 0.5, 10000), 0);
        cr_assert_eq(memcmp(one, two, sizeof one), 0, "row %d", r);
    }
}

// d = 2, theta_0 = 1: (1, 0) at position 4 with scale 0.25 turns by 1 radian.
Test(rope_apply_scaled, hand_value_and_errors) {
    float x[2] = {1, 0};
    cr_assert_eq(rope_apply_scaled(x, 1, 2, 4, 0.25, 10000), 0);
    cr_assert_float_eq(x[0], 0.540302f, 1e-6);
    cr_assert_float_eq(x[1], 0.841471f, 1e-6);
    float y[2] = {1, 2};
    cr_assert_eq(rope_apply_scaled(y, 1, 3, 0, 1.0, 10000), -1);       // odd d
    cr_assert_eq(rope_apply_scaled(y, 1, 2, 0, INFINITY, 10000), -1);
    cr_assert_eq(rope_apply_scaled(y, 1, 2, 0, NAN, 10000), -1);
    cr_assert_eq(rope_apply_scaled(y, 1, 2, 0, 1.0, 0), -1);
    cr_assert_eq(rope_apply_scaled(y, -1, 2, 0, 1.0, 10000), -1);
    cr_assert(y[0] == 1 && y[1] == 2);
}

// With the NTK-aware base for a stretch s, pair 0 keeps theta_0 = 1 and the
// slowest pair turns exactly s times slower; every pair in between is slowed
// by a factor in [1, s]. d = 4, s = 4: 10000 * 4^2 = 160000.
Test(rope_ntk_base, slowest_pair_interpolated) {
    cr_assert_float_eq(rope_ntk_base(10000, 4, 4.0), 160000.0, 1e-6);
    const int ds[3] = {4, 32, 128};
    const double ss[3] = {1.0, 2.0, 8.0};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            int d = ds[a];
            double s = ss[b], nb = rope_ntk_base(10000, d, s);
            for (int i = 0; i < d / 2; i++) {
                double old = pow(10000, -2.0 * i / d), now = pow(nb, -2.0 * i / d);
                double slow = old / now;
                cr_assert(slow >= 1 - 1e-12 && slow <= s * (1 + 1e-12), "d %d i %d", d,
                          i);
                if (i == 0) cr_assert_float_eq(slow, 1.0, 1e-12);
                if (i == d / 2 - 1) cr_assert_float_eq(slow, s, 1e-9 * s);
            }
        }
    cr_assert(isnan(rope_ntk_base(10000, 2, 2.0)));      // only one pair
    cr_assert(isnan(rope_ntk_base(10000, 5, 2.0)));
    cr_assert(isnan(rope_ntk_base(10000, 8, 0.0)));
    cr_assert(isnan(rope_ntk_base(10000, 8, NAN)));
    cr_assert(isnan(rope_ntk_base(-1, 8, 2.0)));
}

// d = 2: one pair, theta_0 = 1, wavelength 2 pi; d = 4, base 10000: pair 1
// turns at 0.01 rad per position, wavelength 200 pi.
Test(rope_max_wavelength, values) {
    cr_assert_float_eq(rope_max_wavelength(2, 10000), 2 * 3.14159265358979, 1e-12);
    cr_assert_float_eq(rope_max_wavelength(4, 10000), 200 * 3.14159265358979, 1e-9);
    cr_assert(isnan(rope_max_wavelength(0, 10000)));
    cr_assert(isnan(rope_max_wavelength(3, 10000)));
    cr_assert(isnan(rope_max_wavelength(8, 0)));
}

// ---------------------------------------------------------------------------
// graded tasks the chapter does not print: the rotate-half layout, and scores
// computed from unturned queries and keys

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

// d = 4: pairs (x0, x2) turn at 1 rad per position, (x1, x3) at 0.01.
Test(rope_apply_half, hand_values_d4) {
    float x[2 * 4] = {1, 0, 0, 1, 1, 0, 0, 1};
    cr_assert_eq(rope_apply_half(x, 2, 4, 100, 10000), 0);
    // row 0, position 100: (x0, x2) = (1, 0) by 100 rad, (x1, x3) = (0, 1) by 1 rad
    cr_assert_float_eq(x[0], (float)cos(100.0), 1e-6);
    cr_assert_float_eq(x[2], (float)sin(100.0), 1e-6);
    cr_assert_float_eq(x[1], -0.841471f, 1e-6);
    cr_assert_float_eq(x[3], 0.540302f, 1e-6);
    cr_assert_float_eq(x[4], (float)cos(101.0), 1e-6);   // row 1: position 101
    cr_assert_float_eq(x[7], (float)cos(1.01), 1e-6);
    float y[2] = {3, 4};
    cr_assert_eq(rope_apply_half(y, 1, 3, 0, 10000), -1);   // odd d
    cr_assert_eq(y[0], 3.0f);
}

// Permuting the columns (2i -> i, 2i + 1 -> i + d/2) turns rope_apply into
// rope_apply_half, for random rows, widths and positions.
Test(rope_apply_half, is_rope_apply_permuted) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 10; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 5);
        int d = 2 * (1 + (int)(rng_uniform(&rng) * 12));
        long pos0 = (long)(rng_uniform(&rng) * 4000) - 2000;
        float x[6 * 24], half[6 * 24];
        rng_fill_normal(&rng, x, n * d, 0, 1);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < d / 2; i++) {
                half[r * d + i] = x[r * d + 2 * i];
                half[r * d + i + d / 2] = x[r * d + 2 * i + 1];
            }
        cr_assert_eq(rope_apply(x, n, d, pos0, 10000), 0);
        cr_assert_eq(rope_apply_half(half, n, d, pos0, 10000), 0);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < d / 2; i++) {
                cr_assert_float_eq(half[r * d + i], x[r * d + 2 * i], 1e-5,
                                   "d %d, pos0 %ld: row %d pair %d", d, pos0, r, i);
                cr_assert_float_eq(half[r * d + i + d / 2], x[r * d + 2 * i + 1], 1e-5,
                                   "d %d, pos0 %ld: row %d pair %d", d, pos0, r, i);
            }
    }
}

// d = 2, theta = 1: q = (1, 0) at 0, k = (0, 1) at 0 and 1: (R_0 q) . (R_1 k)
// = (1, 0) . (-sin 1, cos 1) = -sin 1.
Test(rope_scores, hand_values_d2) {
    const float q[2] = {1, 0}, k[4] = {0, 1, 0, 1};
    float s[2] = {7, 7};
    cr_assert_eq(rope_scores(q, k, s, 1, 2, 2, 0, 0, 10000), 0);
    cr_assert_float_eq(s[0], 0.0f, 1e-6);
    cr_assert_float_eq(s[1], -0.841471f, 1e-6);
    cr_assert_eq(rope_scores(q, k, s, 1, 2, 2, 1, 0, 10000), 0);   // q moves to 1
    cr_assert_float_eq(s[0], 0.841471f, 1e-6);
    cr_assert_float_eq(s[1], 0.0f, 1e-6);
}

// Against turning q and k with rope_apply and taking dot products, for random
// sizes and positions (a negative distance too); shifting both positions by
// the same amount changes nothing.
Test(rope_scores, equals_turned_dot_products) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 8; c++) {
        int n = 1 + (int)(rng_uniform(&rng) * 6), m = 1 + (int)(rng_uniform(&rng) * 6);
        int d = 2 * (1 + (int)(rng_uniform(&rng) * 16));
        long qp = (long)(rng_uniform(&rng) * 3000);
        long kp = (long)(rng_uniform(&rng) * 3000);
        float q[6 * 32], k[6 * 32], qt[6 * 32], kt[6 * 32], s[36], s2[36];
        rng_fill_normal(&rng, q, n * d, 0, 1);
        rng_fill_normal(&rng, k, m * d, 0, 1);
        memcpy(qt, q, sizeof q), memcpy(kt, k, sizeof k);
        rope_apply(qt, n, d, qp, 10000), rope_apply(kt, m, d, kp, 10000);
        cr_assert_eq(rope_scores(q, k, s, n, m, d, qp, kp, 10000), 0);
        cr_assert_eq(rope_scores(q, k, s2, n, m, d, qp + 777, kp + 777, 10000), 0);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                double want = dot(qt + i * d, kt + j * d, d);
                cr_assert(fabs(s[i * m + j] - want) <= 1e-4 * (1 + fabs(want)),
                          "d %d, positions %ld, %ld: s[%d][%d] = %g, want %g", d, qp,
                          kp, i, j, (double)s[i * m + j], want);
                cr_assert_float_eq(s2[i * m + j], s[i * m + j], 1e-4);
            }
    }
}
