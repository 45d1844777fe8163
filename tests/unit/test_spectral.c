// test_spectral.c -- power iteration and the Perron-Frobenius eigenvalue 1.
#include <criterion/criterion.h>
#include <math.h>

#include "base/rng.h"
#include "attention/softmax.h"
#include "attention/spectral.h"

// diag(3, 1): the dominant eigenvalue is 3, eigenvector e1.
Test(spectral_power_iteration, diagonal_matrix) {
    float a[4] = {3, 0, 0, 1};
    double x[2] = {1, 1}, lam;
    int it = spectral_power_iteration(a, 2, 0, x, 200, 1e-12, &lam);
    cr_assert(it > 0);
    cr_assert_float_eq(lam, 3.0, 1e-9);
    cr_assert_float_eq(fabs(x[0]), 1.0, 1e-9);
}

// Hand computation: [[2, 1], [1, 2]] has eigenvalues 3 (vector (1, 1)/sqrt 2)
// and 1 (vector (1, -1)/sqrt 2).
Test(spectral_power_iteration, symmetric_two_by_two_by_hand) {
    float a[4] = {2, 1, 1, 2};
    double x[2] = {1, 0}, lam;
    cr_assert(spectral_power_iteration(a, 2, 0, x, 200, 1e-12, &lam) > 0);
    cr_assert_float_eq(lam, 3.0, 1e-9);
    cr_assert_float_eq(x[0], 1.0 / sqrt(2.0), 1e-6);
    cr_assert_float_eq(x[1], 1.0 / sqrt(2.0), 1e-6);
}

// A negative dominant eigenvalue: the vector flips sign every step, which
// must still count as converged.
Test(spectral_power_iteration, negative_dominant_eigenvalue) {
    float a[4] = {-3, 0, 0, 1};
    double x[2] = {1, 1}, lam;
    cr_assert(spectral_power_iteration(a, 2, 0, x, 200, 1e-12, &lam) > 0);
    cr_assert_float_eq(lam, -3.0, 1e-9);
}

// Hand computation of a stationary distribution: for A = [[0.9, 0.1],
// [0.5, 0.5]], pi A = pi means 0.1 pi_1 = 0.5 pi_2, so pi = (5/6, 1/6).
Test(spectral_power_iteration, left_eigenvector_is_stationary_distribution) {
    float a[4] = {0.9f, 0.1f, 0.5f, 0.5f};
    double x[2] = {1, 1}, lam;
    cr_assert(spectral_power_iteration(a, 2, 1, x, 500, 1e-12, &lam) > 0);
    cr_assert_float_eq(lam, 1.0, 1e-7);
    cr_assert_float_eq(x[0] / (x[0] + x[1]), 5.0 / 6.0, 1e-6);
}

// Perron-Frobenius: a positive row-stochastic matrix (softmax of any scores)
// has largest eigenvalue exactly 1, on the right (A 1 = 1) and on the left.
Test(spectral_power_iteration, random_row_stochastic_matrices_have_eigenvalue_one) {
    rng_t rng;
    rng_seed(&rng, 21);
    for (int t = 0; t < 50; t++) {
        int n = 1 + t % 12;
        float a[144];
        rng_fill_normal(&rng, a, n * n, 0.0f, 1.5f);
        softmax_rows(a, n, n);
        for (int left = 0; left < 2; left++) {
            double x[12], lam;
            for (int i = 0; i < n; i++) x[i] = 1.0 + rng_uniform(&rng);
            int it = spectral_power_iteration(a, n, left, x, 2000, 1e-10, &lam);
            cr_assert(it > 0, "n = %d did not converge", n);
            cr_assert_float_eq(lam, 1.0, 1e-5);
        }
        cr_assert_float_eq(spectral_max_abs_row_sum(a, n), 1.0, 1e-5);
    }
}

// Hand computation: rows |1| + |-2| = 3 and |3| + |0| = 3, |0.5| + |0.5| = 1.
Test(spectral_bound, max_abs_row_sum_by_hand) {
    float a[4] = {1, -2, 3, 0}, b[4] = {0.5f, -0.5f, 0.25f, 0.25f};
    cr_assert_float_eq(spectral_max_abs_row_sum(a, 2), 3.0, 0.0);
    cr_assert_float_eq(spectral_max_abs_row_sum(b, 2), 1.0, 0.0);
}

// A 90-degree rotation has eigenvalues +i and -i: no single dominant real
// eigenvalue, so power iteration must report that it did not converge.
Test(spectral_power_iteration, rotation_does_not_converge) {
    float a[4] = {0, -1, 1, 0};
    double x[2] = {2, 0}, lam;
    cr_assert_eq(spectral_power_iteration(a, 2, 0, x, 100, 1e-12, &lam), -1);
    // It still iterated: x was rescaled to unit length and rotated around.
    cr_assert_float_eq(x[0] * x[0] + x[1] * x[1], 1.0, 1e-9);
}
