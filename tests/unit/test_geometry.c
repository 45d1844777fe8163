// test_geometry.c -- norms, cosines and angles.
#include <criterion/criterion.h>
#include <math.h>

#include "attention/geometry.h"
#include "base/mat.h"
#include "base/rng.h"

// Hand computation: |(3, 4)| = sqrt(9 + 16) = 5 and |(0, -2)| = 2.
Test(geometry, row_norms_by_hand) {
    float x[4] = {3, 4, 0, -2}, n[2];
    geom_row_norms(x, n, 2, 2);
    cr_assert_float_eq(n[0], 5.0f, 1e-6);
    cr_assert_float_eq(n[1], 2.0f, 1e-6);
}

// Parallel, orthogonal, opposite and zero vectors.
Test(geometry, cosines_of_special_pairs) {
    float q[2] = {2, 0};
    float k[8] = {5, 0, 0, 3, -1, 0, 0, 0};
    float c[4];
    geom_cosine_matrix(q, k, c, 1, 4, 2);
    cr_assert_float_eq(c[0], 1.0f, 1e-7);
    cr_assert_float_eq(c[1], 0.0f, 1e-7);
    cr_assert_float_eq(c[2], -1.0f, 1e-7);
    cr_assert_float_eq(c[3], 0.0f, 0.0);   // zero key: defined as 0
}

Test(geometry, angles_in_degrees) {
    cr_assert_float_eq(geom_angle_degrees(1.0), 0.0, 1e-12);
    cr_assert_float_eq(geom_angle_degrees(0.0), 90.0, 1e-12);
    cr_assert_float_eq(geom_angle_degrees(-1.0), 180.0, 1e-12);
    cr_assert_float_eq(geom_angle_degrees(0.5), 60.0, 1e-9);
    cr_assert(!isnan(geom_angle_degrees(1.0000001)));   // rounding past 1 is clamped
    cr_assert(!isnan(geom_angle_degrees(-1.0000001)));
}

// q . k = |q| |k| cos(theta) on random vectors.
Test(geometry, dot_product_is_lengths_times_cosine) {
    enum { N = 4, M = 5, D = 7 };
    rng_t rng;
    rng_seed(&rng, 9);
    float q[N * D], k[M * D], c[N * M], nq[N], nk[M];
    rng_fill_normal(&rng, q, N * D, 0, 1);
    rng_fill_normal(&rng, k, M * D, 0, 1);
    geom_cosine_matrix(q, k, c, N, M, D);
    geom_row_norms(q, nq, N, D);
    geom_row_norms(k, nk, M, D);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            double dot = mat_dot(q + i * D, k + j * D, D);
            cr_assert_float_eq(dot, (double)nq[i] * nk[j] * c[i * M + j], 1e-5);
            cr_assert(fabsf(c[i * M + j]) <= 1.0f + 1e-6f);
        }
}
