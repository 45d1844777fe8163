// test_mat.c -- the dense matrix helpers, on values computed by hand.
#include <criterion/criterion.h>
#include <math.h>

#include "helpers.h"

// a (2, 3) = [[1, 2, 3], [4, 5, 6]], b (3, 2) = [[7, 8], [9, 10], [11, 12]]:
// a b = [[1*7 + 2*9 + 3*11, 1*8 + 2*10 + 3*12], [4*7 + 5*9 + 6*11, ...]]
//     = [[58, 64], [139, 154]].
static const float A[6] = {1, 2, 3, 4, 5, 6};
static const float B[6] = {7, 8, 9, 10, 11, 12};

Test(mat, mul_by_hand) {
    float c[4];
    mat_mul(A, B, c, 2, 3, 2);
    const float want[4] = {58, 64, 139, 154};
    assert_floats_near(c, want, 4, 0.0, "c");
}

// a b^T with b (2, 3) = B read as [[7, 8, 9], [10, 11, 12]]:
// [[1*7 + 2*8 + 3*9, 1*10 + 2*11 + 3*12], [4*7 + 5*8 + 6*9, 4*10 + 5*11 + 6*12]]
// = [[50, 68], [122, 167]].
Test(mat, mul_bt_by_hand) {
    float c[4];
    mat_mul_bt(A, B, c, 2, 3, 2);
    const float want[4] = {50, 68, 122, 167};
    assert_floats_near(c, want, 4, 0.0, "c");
}

// mat_mul_bt(a, b) == mat_mul(a, transpose(b)) on random sizes.
Test(mat, mul_bt_equals_mul_of_transpose) {
    float a[5 * 7], b[4 * 7], bt[7 * 4], c1[5 * 4], c2[5 * 4];
    random_fill(a, 5 * 7, 1, 1.0f);
    random_fill(b, 4 * 7, 2, 1.0f);
    mat_transpose(b, bt, 4, 7);
    mat_mul_bt(a, b, c1, 5, 7, 4);
    mat_mul(a, bt, c2, 5, 7, 4);
    assert_floats_near(c1, c2, 5 * 4, 1e-6, "c");
}

Test(mat, transpose_by_hand) {
    float t[6];
    mat_transpose(A, t, 2, 3);
    const float want[6] = {1, 4, 2, 5, 3, 6};
    assert_floats_near(t, want, 6, 0.0, "t");
}

Test(mat, scale_add_add_row_by_hand) {
    float x[6] = {1, 2, 3, 4, 5, 6};
    mat_scale(x, 6, 0.5f);
    const float half[6] = {0.5f, 1, 1.5f, 2, 2.5f, 3};
    assert_floats_near(x, half, 6, 0.0, "scaled");
    mat_add(x, A, 6);
    const float sum[6] = {1.5f, 3, 4.5f, 6, 7.5f, 9};
    assert_floats_near(x, sum, 6, 0.0, "added");
    const float bias[3] = {1, -1, 0};
    mat_add_row(x, bias, 2, 3);
    const float biased[6] = {2.5f, 2, 4.5f, 7, 6.5f, 9};
    assert_floats_near(x, biased, 6, 0.0, "biased");
}

// (1, 2, 3) . (4, -5, 6) = 4 - 10 + 18 = 12;  |(3, 4)| = 5.
Test(mat, dot_and_norm_by_hand) {
    const float a[3] = {1, 2, 3}, b[3] = {4, -5, 6}, c[2] = {3, 4};
    cr_assert_float_eq(mat_dot(a, b, 3), 12.0, 0.0);
    cr_assert_float_eq(mat_norm(c, 2), 5.0, 0.0);
    cr_assert_float_eq(mat_dot(a, b, 0), 0.0, 0.0);
}

// max |a - b|: (1, 2, 3) vs (1, 4, 2.5) -> max(0, 2, 0.5) = 2; 0 for size 0;
// NaN anywhere makes it NaN, so a check built on it fails.
Test(mat, max_abs_diff_by_hand) {
    const float a[3] = {1, 2, 3}, b[3] = {1, 4, 2.5f};
    cr_assert_float_eq(mat_max_abs_diff(a, b, 3), 2.0, 0.0);
    cr_assert_float_eq(mat_max_abs_diff(a, a, 3), 0.0, 0.0);
    cr_assert_float_eq(mat_max_abs_diff(a, b, 0), 0.0, 0.0);
    const float n1[3] = {1, NAN, 3}, n2[3] = {NAN, 2, 3};
    cr_assert(isnan(mat_max_abs_diff(n1, a, 3)));
    cr_assert(isnan(mat_max_abs_diff(a, n2, 3)));   // NaN first, then a larger diff
    const float big[3] = {100, 2, 3};
    cr_assert(isnan(mat_max_abs_diff(n2, big, 3)));
    const float inf[1] = {INFINITY};
    cr_assert(isinf(mat_max_abs_diff(inf, a, 1)));
}

// sum of squares: (1, 2, 3) vs (1, 4, 2.5) -> 0 + 4 + 0.25 = 4.25; 0 for size 0.
Test(mat, sq_dist_by_hand) {
    const float a[3] = {1, 2, 3}, b[3] = {1, 4, 2.5f};
    cr_assert_float_eq(mat_sq_dist(a, b, 3), 4.25, 0.0);
    cr_assert_float_eq(mat_sq_dist(b, a, 3), 4.25, 0.0);
    cr_assert_float_eq(mat_sq_dist(a, b, 0), 0.0, 0.0);
    // sqrt of it is the distance: |(3, 4) - (0, 0)| = 5.
    const float c[2] = {3, 4}, z[2] = {0, 0};
    cr_assert_float_eq(sqrt(mat_sq_dist(c, z, 2)), mat_norm(c, 2), 0.0);
}
