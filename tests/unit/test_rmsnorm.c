// test_rmsnorm.c -- RMSNorm: a row by hand, unit RMS, scale invariance, and the
// backward pass against central finite differences of L = sum(r * out).
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "layers/rmsnorm.h"

#include "helpers.h"

Test(rmsnorm, by_hand) {
    // x = (1, 2, 3, 4): mean(x^2) = 30 / 4 = 7.5, rstd = 1 / sqrt(7.5 + 1e-5)
    // = 0.3651481; w = (1, 1, 2, 0.5) -> out = (0.365148, 0.730296, 2.190889,
    // 0.730296).
    const float x[4] = {1, 2, 3, 4}, w[4] = {1, 1, 2, 0.5f};
    const float want[4] = {0.365148f, 0.730296f, 2.190889f, 0.730296f};
    float out[4], rstd[1];
    cr_assert_eq(rmsnorm_forward(out, rstd, x, w, 1, 4, RMSNORM_EPS), 0);
    cr_assert_float_eq(rstd[0], 0.3651481f, 1e-6);
    assert_floats_near(out, want, 4, 1e-5, "out");
}

Test(rmsnorm, unit_rms_and_scale_invariance) {
    enum { N = 5, C = 33 };
    float x[N * C], x3[N * C], w[C], out[N * C], out3[N * C], rstd[N];
    random_fill(x, N * C, 1, 2.0f);
    for (int i = 0; i < C; i++) w[i] = 1.0f;
    for (int i = 0; i < N * C; i++) x3[i] = 3.0f * x[i];
    rmsnorm_forward(out, rstd, x, w, N, C, 0.0f);
    rmsnorm_forward(out3, rstd, x3, w, N, C, 0.0f);
    for (int n = 0; n < N; n++) {
        double ss = 0.0;
        for (int i = 0; i < C; i++) ss += (double)out[n * C + i] * out[n * C + i];
        cr_assert_float_eq(sqrt(ss / C), 1.0, 1e-5, "row %d", n);
    }
    assert_floats_near(out3, out, N * C, 1e-5, "out(3x)");
}

Test(rmsnorm, refuses_bad_eps_and_writes_nothing) {
    float x[2] = {1, 2}, w[2] = {1, 1}, out[2] = {7, 7}, rstd[1] = {7};
    cr_assert_eq(rmsnorm_forward(out, rstd, x, w, 1, 2, -1.0f), -1);
    cr_assert_eq(rmsnorm_forward(out, rstd, x, w, 1, 2, NAN), -1);
    cr_assert(out[0] == 7 && out[1] == 7 && rstd[0] == 7);
    cr_assert_eq(rmsnorm_forward(out, rstd, x, w, 0, 2, 1e-5f), 0);   // empty
    cr_assert(out[0] == 7);
}

enum { RN = 3, RC = 7 };
typedef struct { float x[RN * RC], w[RC], r[RN * RC]; } rms_ctx;

static double rms_loss(void *p) {
    rms_ctx *c = p;
    float out[RN * RC], rstd[RN];
    rmsnorm_forward(out, rstd, c->x, c->w, RN, RC, RMSNORM_EPS);
    return dot_r(c->r, out, RN * RC);
}

Test(rmsnorm, backward_matches_finite_differences_and_accumulates) {
    rms_ctx c;
    random_fill(c.x, RN * RC, 2, 1.0f);
    random_fill(c.w, RC, 3, 1.0f);
    random_fill(c.r, RN * RC, 4, 1.0f);
    float out[RN * RC], rstd[RN], dx[RN * RC] = {0}, dw[RC] = {0};
    rmsnorm_forward(out, rstd, c.x, c.w, RN, RC, RMSNORM_EPS);
    rmsnorm_backward(dx, dw, c.r, c.x, c.w, rstd, RN, RC);
    check_grad_eps("dx", c.x, dx, RN * RC, rms_loss, &c, 1e-2f);
    check_grad_eps("dw", c.w, dw, RC, rms_loss, &c, 1e-2f);
    float dx2[RN * RC], dw2[RC];
    memcpy(dx2, dx, sizeof dx);
    memcpy(dw2, dw, sizeof dw);
    rmsnorm_backward(dx2, dw2, c.r, c.x, c.w, rstd, RN, RC);   // adds a second copy
    for (int i = 0; i < RN * RC; i++) cr_assert_float_eq(dx2[i], 2 * dx[i], 1e-5);
    for (int i = 0; i < RC; i++) cr_assert_float_eq(dw2[i], 2 * dw[i], 1e-5);
}
