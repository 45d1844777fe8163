// test_attn_stats.c -- entropy and other summaries of attention matrices.
#include <criterion/criterion.h>
#include <math.h>

#include "attention/attn_stats.h"

// H(uniform over m) = -m (1/m) ln(1/m) = ln m; H(one-hot) = -1 ln 1 = 0.
Test(attn_stats, entropy_of_uniform_and_one_hot) {
    float u[4] = {0.25f, 0.25f, 0.25f, 0.25f}, e[4] = {0, 0, 1, 0};
    cr_assert_float_eq(attn_row_entropy(u, 4), log(4.0), 1e-7);
    cr_assert_float_eq(attn_row_entropy(e, 4), 0.0, 0.0);
}

// Hand computation: (1/2, 1/4, 1/4) gives 1/2 ln 2 + 2 (1/4) ln 4 = 1.5 ln 2.
Test(attn_stats, entropy_by_hand) {
    float p[3] = {0.5f, 0.25f, 0.25f};
    cr_assert_float_eq(attn_row_entropy(p, 3), 1.5 * log(2.0), 1e-7);
    // Effective range exp(H) = 2^1.5 = 2.83 keys.
    cr_assert_float_eq(exp(attn_row_entropy(p, 3)), pow(2.0, 1.5), 1e-6);
}

Test(attn_stats, mean_entropy_averages_rows) {
    float w[6] = {0.5f, 0.5f, 0.0f, 1.0f, 0.0f, 0.0f};   // ln 2 and 0
    cr_assert_float_eq(attn_mean_entropy(w, 2, 3), 0.5 * log(2.0), 1e-7);
}

Test(attn_stats, row_sum_error) {
    float ok[4] = {0.25f, 0.75f, 0.5f, 0.5f}, bad[4] = {0.5f, 0.6f, 1.0f, 0.0f};
    cr_assert_float_eq(attn_row_sum_error(ok, 2, 2), 0.0, 1e-7);
    cr_assert_float_eq(attn_row_sum_error(bad, 2, 2), 0.1, 1e-6);
}

Test(attn_stats, extremes) {
    float w[6] = {0.1f, 0.7f, 0.2f, 0.0f, 0.4f, 0.6f};
    cr_assert_float_eq(attn_max_weight(w, 2, 3), 0.7, 1e-7);
    cr_assert_float_eq(attn_min_weight(w, 2, 3), 0.0, 0.0);
}

// Identity attention: every token attends only to itself, diagonal = 1.
// Uniform attention over n = 4: diagonal = 1/4.
Test(attn_stats, diagonal_strength) {
    float id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, u[16];
    for (int i = 0; i < 16; i++) u[i] = 0.25f;
    cr_assert_float_eq(attn_diag_strength(id, 3), 1.0, 0.0);
    cr_assert_float_eq(attn_diag_strength(u, 4), 0.25, 1e-7);
}

// Uniform 4x4 with radius 1: rows 0 and 3 see 2 keys (0.5), rows 1 and 2 see
// 3 keys (0.75); mean (0.5 + 0.75 + 0.75 + 0.5) / 4 = 0.625.
Test(attn_stats, locality_by_hand) {
    float u[16];
    for (int i = 0; i < 16; i++) u[i] = 0.25f;
    cr_assert_float_eq(attn_locality(u, 4, 4, 1), 0.625, 1e-7);
    cr_assert_float_eq(attn_locality(u, 4, 4, 3), 1.0, 1e-7);
}

Test(attn_stats, sparsity_counts_small_weights) {
    float w[4] = {0.05f, 0.05f, 0.1f, 0.8f};
    cr_assert_float_eq(attn_sparsity(w, 1, 4, 0.1f), 0.5, 0.0);
}
