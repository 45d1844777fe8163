// test_linear.c -- y = x W + b: hand-checked values, gradients, initialisation.
#include <criterion/criterion.h>
#include <math.h>

#include "base/linear.h"
#include "base/rng.h"

#include "helpers.h"

// x = [[1, 2, 3],      w = [[1,  0],      b = [0.5, -0.5]
//      [4, 5, 6]]           [0,  1],
//                           [1, -1]]
// Row 1: x w = [1*1 + 2*0 + 3*1, 1*0 + 2*1 + 3*(-1)] = [4, -1]; + b = [4.5, -1.5].
// Row 2: x w = [4 + 0 + 6, 0 + 5 - 6] = [10, -1];               + b = [10.5, -1.5].
static const float X[6] = {1, 2, 3, 4, 5, 6};
static const float W[6] = {1, 0, 0, 1, 1, -1};
static const float B[2] = {0.5f, -0.5f};

Test(linear, hand_checked_with_bias) {
    float y[4] = {NAN, NAN, NAN, NAN};
    linear_forward(X, W, B, y, 2, 3, 2);
    const float want[4] = {4.5f, -1.5f, 10.5f, -1.5f};
    assert_floats_near(y, want, 4, 1e-6, "y");
}

Test(linear, hand_checked_without_bias) {
    float y[4] = {NAN, NAN, NAN, NAN};
    linear_forward(X, W, NULL, y, 2, 3, 2);
    const float want[4] = {4, -1, 10, -1};
    assert_floats_near(y, want, 4, 1e-6, "y");
}

Test(linear, identity_weights_copy_the_input) {
    float x[12], w[16] = {0}, y[12];
    rng_t rng;
    rng_seed(&rng, 1);
    rng_fill_normal(&rng, x, 12, 0, 1);
    for (int i = 0; i < 4; i++) w[i * 4 + i] = 1;
    linear_forward(x, w, NULL, y, 3, 4, 4);
    assert_floats_near(y, x, 12, 1e-6, "y");
}

Test(linear, one_row_at_a_time_equals_all_rows) {
    // Each output row depends only on its own input row.
    enum { N = 5, DI = 3, DO = 4 };
    float x[N * DI], w[DI * DO], b[DO], y[N * DO], yr[DO];
    rng_t rng;
    rng_seed(&rng, 2);
    rng_fill_normal(&rng, x, N * DI, 0, 1);
    rng_fill_normal(&rng, w, DI * DO, 0, 1);
    rng_fill_normal(&rng, b, DO, 0, 1);
    linear_forward(x, w, b, y, N, DI, DO);
    for (int i = 0; i < N; i++) {
        linear_forward(x + i * DI, w, b, yr, 1, DI, DO);
        for (int j = 0; j < DO; j++) cr_assert_float_eq(yr[j], y[i * DO + j], 1e-6);
    }
}

// Loss L = sum_ij c[i][j] y[i][j], so dL/dy = c. L is linear in x, w and b,
// so a central difference is exact up to rounding.
static double loss(const float *x, const float *w, const float *b, const float *c,
                   int n, int di, int dout) {
    float y[64];
    linear_forward(x, w, b, y, n, di, dout);
    double l = 0;
    for (int i = 0; i < n * dout; i++) l += (double)c[i] * y[i];
    return l;
}

Test(linear, backward_matches_finite_differences) {
    enum { N = 3, DI = 4, DO = 2 };
    float x[N * DI], w[DI * DO], b[DO], c[N * DO];
    float dx[N * DI] = {0}, dw[DI * DO] = {0}, db[DO] = {0};
    rng_t rng;
    rng_seed(&rng, 3);
    rng_fill_normal(&rng, x, N * DI, 0, 1);
    rng_fill_normal(&rng, w, DI * DO, 0, 1);
    rng_fill_normal(&rng, b, DO, 0, 1);
    rng_fill_normal(&rng, c, N * DO, 0, 1);
    linear_backward(x, w, c, dx, dw, db, N, DI, DO);
    const float h = 1e-2f;
    float *params[3] = {x, w, b}, *grads[3] = {dx, dw, db};
    int sizes[3] = {N * DI, DI * DO, DO};
    for (int t = 0; t < 3; t++)
        for (int i = 0; i < sizes[t]; i++) {
            float keep = params[t][i];
            params[t][i] = keep + h;
            double up = loss(x, w, b, c, N, DI, DO);
            params[t][i] = keep - h;
            double down = loss(x, w, b, c, N, DI, DO);
            params[t][i] = keep;
            cr_assert_float_eq(grads[t][i], (up - down) / (2 * h), 1e-3,
                               "tensor %d, entry %d", t, i);
        }
}

Test(linear, backward_accumulates_and_skips_null) {
    float dw[6] = {0}, dy[4] = {1, 1, 1, 1};
    linear_backward(X, W, dy, NULL, dw, NULL, 2, 3, 2);
    linear_backward(X, W, dy, NULL, dw, NULL, 2, 3, 2);
    // dw[p][j] = 2 * sum_i x[i][p] = 2 * (1 + 4), 2 * (2 + 5), 2 * (3 + 6)
    const float want[3] = {10, 14, 18};
    for (int p = 0; p < 3; p++)
        for (int j = 0; j < 2; j++) cr_assert_float_eq(dw[p * 2 + j], want[p], 1e-5);
}

Test(linear, xavier_bound_and_variance) {
    enum { DI = 64, DO = 32 };
    static float w[DI * DO];
    rng_t rng;
    rng_seed(&rng, 4);
    linear_init_xavier(&rng, w, DI, DO);
    double a = sqrt(6.0 / (DI + DO)), sum = 0, sq = 0;
    for (int i = 0; i < DI * DO; i++) {
        cr_assert(fabs(w[i]) <= a + 1e-6, "w[%d] = %g outside +-%g", i, w[i], a);
        sum += w[i];
        sq += (double)w[i] * w[i];
    }
    double mean = sum / (DI * DO), var = sq / (DI * DO) - mean * mean;
    cr_assert(fabs(mean) < 0.01, "mean %g", mean);
    // Var(U(-a, a)) = a^2 / 3 = 2 / (d_in + d_out); 2048 samples: within 10 %.
    cr_assert(fabs(var / (2.0 / (DI + DO)) - 1.0) < 0.1, "var %g", var);
}

Test(linear, init_is_reproducible) {
    float a[20], b[20];
    rng_t r1, r2;
    rng_seed(&r1, 7);
    rng_seed(&r2, 7);
    linear_init_normal(&r1, a, 4, 5, 0.5f);
    linear_init_normal(&r2, b, 4, 5, 0.5f);
    cr_assert_arr_eq(a, b, sizeof a);
    linear_init_uniform(&r1, a, 4, 5, 0.25f);
    for (int i = 0; i < 20; i++) cr_assert(fabsf(a[i]) <= 0.25f);
}
