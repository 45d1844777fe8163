// test_xent.c -- softmax cross-entropy: hand-checked, padding ignored, gradient.
#include <criterion/criterion.h>
#include <math.h>

#include "train/xent.h"

// Uniform logits over V classes: loss log V per row.
Test(xent, uniform_logits_cost_log_v) {
    float z[8] = {0}, p[8];
    int y[2] = {1, 3}, count;
    double l = xent_forward(z, y, p, 2, 4, -1, &count);
    cr_assert_eq(count, 2);
    cr_assert_float_eq(l, 2 * log(4.0), 1e-6);
    for (int i = 0; i < 8; i++) cr_assert_float_eq(p[i], 0.25f, 1e-7);
}

// Logits [1, 2, 3], target 2: loss = log(e + e^2 + e^3) - 3 = 0.407606.
Test(xent, hand_checked) {
    float z[3] = {1, 2, 3}, p[3];
    int y = 2, count;
    cr_assert_float_eq(xent_forward(z, &y, p, 1, 3, -1, &count), 0.407606, 1e-6);
}

Test(xent, ignored_rows_cost_nothing_and_get_no_gradient) {
    float z[6] = {1, 2, 3, 4, 5, 6}, p[6], dz[6] = {0};
    int y[2] = {0, 2}, count;
    double l = xent_forward(z, y, p, 2, 3, 0, &count);
    cr_assert_eq(count, 1);
    cr_assert_float_eq(l, 0.407606, 1e-6);
    xent_backward(p, y, dz, 2, 3, 0, 1.0f);
    for (int j = 0; j < 3; j++) cr_assert_eq(dz[j], 0.0f);
}

Test(xent, gradient_matches_finite_differences) {
    float z[8] = {0.3f, -1.2f, 2.0f, 0.5f, 1.5f, 0.1f, -0.4f, 0.9f}, p[8], dz[8] = {0};
    int y[2] = {2, 0}, count;
    xent_forward(z, y, p, 2, 4, -1, &count);
    xent_backward(p, y, dz, 2, 4, -1, 0.5f);   // the mean over 2 rows
    for (int i = 0; i < 8; i++) {
        float keep = z[i], eps = 1e-2f;
        z[i] = keep + eps;
        double lp = xent_forward(z, y, p, 2, 4, -1, &count) / 2;
        z[i] = keep - eps;
        double lm = xent_forward(z, y, p, 2, 4, -1, &count) / 2;
        z[i] = keep;
        cr_assert_float_eq((lp - lm) / (2 * eps), dz[i], 2e-4, "dz[%d]", i);
    }
}
