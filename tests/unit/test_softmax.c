// test_softmax.c -- naive and stable softmax, temperature, masks, Jacobian.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "attention/softmax.h"

#include "helpers.h"

// Hand computation: exp(0) = 1, exp(ln 2) = 2, exp(ln 3) = 3; the sum is 6,
// so the weights are 1/6, 2/6, 3/6.
Test(softmax, known_values_by_hand) {
    float x[3] = {0.0f, logf(2.0f), logf(3.0f)};
    softmax(x, 3);
    cr_assert_float_eq(x[0], 1.0f / 6, 1e-6);
    cr_assert_float_eq(x[1], 2.0f / 6, 1e-6);
    cr_assert_float_eq(x[2], 3.0f / 6, 1e-6);
}

// Equal logits: every exp is the same, so each weight is 1/n.
Test(softmax, equal_logits_give_uniform) {
    float x[5] = {7, 7, 7, 7, 7};
    softmax(x, 5);
    for (int i = 0; i < 5; i++) cr_assert_float_eq(x[i], 0.2f, 1e-7);
}

// One logit: softmax of a single number is 1, whatever the number.
Test(softmax, single_entry_is_one) {
    float x[1] = {-12345.0f};
    softmax(x, 1);
    cr_assert_float_eq(x[0], 1.0f, 0.0);
}

Test(softmax, rows_sum_to_one_and_positive) {
    enum { N = 7, M = 13 };
    float x[N * M];
    random_fill(x, N * M, 1, 3.0f);
    softmax_rows(x, N, M);
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < M; j++) {
            cr_assert(x[i * M + j] > 0.0f);
            s += x[i * M + j];
        }
        cr_assert_float_eq(s, 1.0, 1e-6);
    }
}

// softmax(x + c) = softmax(x): exp(x_i + c) / sum exp(x_j + c), the e^c cancels.
Test(softmax, shift_invariance) {
    static const float shifts[] = {-1000.0f, -50.0f, 3.5f, 100.0f, 1000.0f};
    float base[8];
    random_fill(base, 8, 2, 1.0f);
    float ref[8];
    memcpy(ref, base, sizeof ref);
    softmax(ref, 8);
    for (int s = 0; s < 5; s++) {
        float x[8];
        for (int i = 0; i < 8; i++) x[i] = base[i] + shifts[s];
        softmax(x, 8);
        // float x + 1000 keeps ~4 decimals of x, so compare at 1e-4.
        assert_floats_near(x, ref, 8, 1e-4, "x");
    }
}

// x_i > x_j implies p_i > p_j.
Test(softmax, preserves_order) {
    float x[6] = {0.3f, -1.0f, 2.0f, 0.31f, 5.0f, -7.0f};
    float p[6];
    memcpy(p, x, sizeof p);
    softmax(p, 6);
    for (int i = 0; i < 6; i++) cr_assert(p[i] > 0.0f && p[i] < 1.0f);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            if (x[i] > x[j]) cr_assert(p[i] > p[j]);
}

// Rows drawn from the grading seed (GRADER_SEED; a fixed seed when it is unset),
// so no submission can know them in advance: sizes 1, 2, odd ones and rows of 64
// to 301, logits of every scale, against a slow reference in double.
Test(softmax, random_rows_from_the_grading_seed) {
    const char *env = getenv("GRADER_SEED");
    rng_t rng;
    rng_seed(&rng, env ? strtoull(env, NULL, 10) : 2024u);
    static const int sizes[] = {1, 2, 3, 17, 63, 64, 65, 129, 301};
    for (int s = 0; s < (int)(sizeof sizes / sizeof *sizes); s++) {
        int n = sizes[s];
        float x[301];
        double want[301];
        float scale = 0.1f + 40.0f * rng_uniform(&rng);
        float shift = 200.0f * (rng_uniform(&rng) - 0.5f);
        rng_fill_normal(&rng, x, n, shift, scale);
        double max = x[0], sum = 0.0;
        for (int i = 1; i < n; i++) max = x[i] > max ? x[i] : max;
        for (int i = 0; i < n; i++) sum += want[i] = exp((double)x[i] - max);
        for (int i = 0; i < n; i++) want[i] /= sum;
        softmax(x, n);
        for (int i = 0; i < n; i++)
            cr_assert(fabs(x[i] - want[i]) <= 1e-6 + 1e-5 * want[i],
                      "n = %d: x[%d] = %.9g, want %.9g", n, i, (double)x[i], want[i]);
    }
}

// Huge logits: e^10000 is inf in float, but the stable version only ever
// evaluates exp(x - max) <= 1.
Test(softmax, huge_logits_no_overflow) {
    float x[3] = {1e4f, 0.0f, -1e4f};
    softmax(x, 3);
    for (int i = 0; i < 3; i++) cr_assert(isfinite(x[i]));
    cr_assert_float_eq(x[0], 1.0f, 1e-7);
    cr_assert_float_eq(x[1], 0.0f, 1e-7);
    cr_assert_float_eq(x[2], 0.0f, 1e-7);

    float y[2] = {1e4f, 1e4f};           // a tie between two huge logits
    softmax(y, 2);
    cr_assert_float_eq(y[0], 0.5f, 1e-7);
    cr_assert_float_eq(y[1], 0.5f, 1e-7);

    float z[3] = {-1e4f, -1e4f + 1.0f, -1e4f + 2.0f};   // all exp() would be 0
    softmax(z, 3);
    for (int i = 0; i < 3; i++) cr_assert(isfinite(z[i]));
    cr_assert_float_eq(z[0] + z[1] + z[2], 1.0f, 1e-6);
}

// The naive formula breaks exactly where the book says: exp(1001) = inf in
// float, and inf / inf = NaN; exp(-1001) = 0, and 0 / 0 = NaN.
Test(softmax, naive_overflows_where_stable_does_not) {
    float a[3] = {1001, 1002, 1003}, b[3] = {1001, 1002, 1003};
    softmax_naive(a, 3);
    softmax(b, 3);
    cr_assert(isnan(a[0]) && isnan(a[1]) && isnan(a[2]));
    for (int i = 0; i < 3; i++) cr_assert(isfinite(b[i]));
    cr_assert_float_eq(b[2], 0.6652f, 1e-4);     // = softmax(1, 2, 3)

    float c[3] = {-1001, -1000, -999};
    softmax_naive(c, 3);
    cr_assert(isnan(c[0]));
}

// Naive first, then efficient: on ordinary logits the two agree.
Test(softmax, naive_equals_stable_on_moderate_logits) {
    float a[16], b[16];
    random_fill(a, 16, 3, 4.0f);
    memcpy(b, a, sizeof b);
    softmax_naive(a, 16);
    softmax(b, 16);
    assert_floats_near(a, b, 16, 1e-6, "a");
}

Test(softmax_temp, temperature_one_is_plain_softmax) {
    float a[10], b[10];
    random_fill(a, 10, 4, 2.0f);
    memcpy(b, a, sizeof b);
    softmax_rows_temp(a, 2, 5, 1.0f);
    softmax_rows(b, 2, 5);
    assert_floats_near(a, b, 10, 1e-7, "a");
    cr_assert_float_eq(a[0] + a[1] + a[2] + a[3] + a[4], 1.0f, 1e-6);
}

// T -> 0: (x_max - x_i) / T -> infinity for every other i, so p -> one-hot.
Test(softmax_temp, low_temperature_approaches_one_hot) {
    float x[4] = {1.0f, 3.0f, 2.0f, 2.9f};
    softmax_rows_temp(x, 1, 4, 0.001f);
    cr_assert_float_eq(x[1], 1.0f, 1e-6);
    cr_assert_float_eq(x[0] + x[2] + x[3], 0.0f, 1e-6);
}

// T -> infinity: every x_i / T -> 0, so p -> uniform 1/m.
Test(softmax_temp, high_temperature_approaches_uniform) {
    float x[4] = {1.0f, 3.0f, 2.0f, -5.0f};
    softmax_rows_temp(x, 1, 4, 1e6f);
    for (int i = 0; i < 4; i++) cr_assert_float_eq(x[i], 0.25f, 1e-5);
}

// Hand computation: hidden entries are ignored, whatever their score. The
// visible scores 0 and ln 3 give exp = 1 and 3, so 1/4 and 3/4.
Test(softmax_masked, hidden_entries_are_zero_visible_renormalised) {
    float x[3] = {0.0f, 100.0f, logf(3.0f)};
    unsigned char mask[3] = {1, 0, 1};
    softmax_rows_masked(x, mask, 1, 3);
    cr_assert_float_eq(x[0], 0.25f, 1e-6);
    cr_assert(x[1] == 0.0f);
    cr_assert_float_eq(x[2], 0.75f, 1e-6);
}

Test(softmax_masked, fully_masked_row_is_zero_not_nan) {
    float x[6] = {1, 2, 3, 4, 5, 6};
    unsigned char mask[6] = {0, 0, 0, 1, 0, 1};   // row 0 hidden, row 1 partly
    softmax_rows_masked(x, mask, 2, 3);
    for (int j = 0; j < 3; j++) {
        cr_assert(!isnan(x[j]));
        cr_assert(x[j] == 0.0f);
    }
    cr_assert_float_eq(x[3] + x[4] + x[5], 1.0f, 1e-6);
    cr_assert(x[4] == 0.0f);
}

Test(softmax_masked, null_mask_equals_softmax_rows) {
    float a[12], b[12];
    random_fill(a, 12, 5, 2.0f);
    memcpy(b, a, sizeof b);
    softmax_rows_masked(a, NULL, 3, 4);
    softmax_rows(b, 3, 4);
    assert_floats_near(a, b, 12, 1e-7, "a");
}

// Hand computation: p = (1/2, 1/2) gives J = diag(p) - p p^T
// = [[1/2 - 1/4, -1/4], [-1/4, 1/2 - 1/4]].
Test(softmax_jacobian, known_values_by_hand) {
    float p[2] = {0.5f, 0.5f}, jac[4];
    softmax_jacobian(p, jac, 2);
    cr_assert_float_eq(jac[0], 0.25f, 1e-7);
    cr_assert_float_eq(jac[1], -0.25f, 1e-7);
    cr_assert_float_eq(jac[2], -0.25f, 1e-7);
    cr_assert_float_eq(jac[3], 0.25f, 1e-7);
}

// Every row of J sums to 0 (the weights always sum to 1), and J matches
// central finite differences of softmax in double-checked float.
Test(softmax_jacobian, rows_sum_to_zero_and_match_finite_differences) {
    enum { N = 5 };
    float x[N], p[N], jac[N * N];
    random_fill(x, N, 6, 1.0f);
    memcpy(p, x, sizeof p);
    softmax(p, N);
    softmax_jacobian(p, jac, N);
    const float h = 1e-2f;
    for (int j = 0; j < N; j++) {
        float up[N], dn[N];
        memcpy(up, x, sizeof up);
        memcpy(dn, x, sizeof dn);
        up[j] += h;
        dn[j] -= h;
        softmax(up, N);
        softmax(dn, N);
        for (int i = 0; i < N; i++)
            cr_assert_float_eq(jac[i * N + j], (up[i] - dn[i]) / (2 * h), 2e-4);
    }
    for (int i = 0; i < N; i++) {
        double s = 0.0;
        for (int j = 0; j < N; j++) s += jac[i * N + j];
        cr_assert_float_eq(s, 0.0, 1e-7);
    }
}

// Saturated softmax: p = one-hot makes J = 0, so no gradient flows.
Test(softmax_jacobian, saturated_softmax_has_zero_jacobian) {
    float p[3] = {100.0f, 0.0f, 0.0f}, jac[9];
    softmax(p, 3);
    softmax_jacobian(p, jac, 3);
    for (int i = 0; i < 9; i++) cr_assert_float_eq(jac[i], 0.0f, 1e-30);
}

// softmax_backward is J^T dp (J is symmetric).
Test(softmax_backward, equals_jacobian_times_upstream) {
    enum { N = 6 };
    float p[N], dp[N], dx[N], jac[N * N];
    random_fill(p, N, 7, 1.5f);
    random_fill(dp, N, 8, 1.0f);
    softmax(p, N);
    softmax_jacobian(p, jac, N);
    softmax_backward(p, dp, dx, N);
    for (int j = 0; j < N; j++) {
        double s = 0.0;
        for (int i = 0; i < N; i++) s += (double)jac[i * N + j] * dp[i];
        cr_assert_float_eq(dx[j], s, 1e-6);
    }
}

// Large logits: softmax_rows_temp subtracts the row max before dividing by t,
// so (x_j - max) / t keeps float precision; dividing first would round x_j / t
// near 16667 to steps of 0.002 and lose ~1e-3 relative accuracy.
Test(softmax, temperature_keeps_precision_for_large_logits) {
    const float t = 0.3f;
    for (int sign = -1; sign <= 1; sign += 2) {
        float x[4] = {5000.0f, 5000.25f, 5000.5f, 5001.0f};
        double ref[4], sum = 0.0, max = sign * 5001.0;
        for (int j = 0; j < 4; j++) x[j] *= (float)sign;
        for (int j = 0; j < 4; j++) max = fmax(max, (double)x[j]);
        for (int j = 0; j < 4; j++) sum += ref[j] = exp(((double)x[j] - max) / t);
        cr_assert_eq(softmax_rows_temp(x, 1, 4, t), 0);
        for (int j = 0; j < 4; j++) {
            double rel = fabs(x[j] - ref[j] / sum) / (ref[j] / sum);
            cr_assert(rel < 2e-6, "sign %d, entry %d: relative error %.2g", sign, j,
                      rel);
        }
    }
}
