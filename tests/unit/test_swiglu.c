// test_swiglu.c -- SwiGLU feed-forward: one row by hand, the gate at 0, and the
// backward pass against central finite differences of L = sum(r * out).
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "layers/swiglu.h"

#include "helpers.h"

Test(swiglu, by_hand) {
    // C = 2, F = 1: x = (1, 2), W_1 = (0.5, 0.25) -> a = 1, SiLU(1) = 1 *
    // sigmoid(1) = 0.7310586; W_3 = (1, -1) -> b = -1; h = -0.7310586;
    // W_2 = (2, 3) -> out = (-1.4621172, -2.1931758).
    float w1[2] = {0.5f, 0.25f}, w3[2] = {1, -1}, w2[2] = {2, 3}, x[2] = {1, 2};
    swiglu_params_t p = {.C = 2, .F = 1, .w1 = w1, .w3 = w3, .w2 = w2};
    float out[2], act[3];
    swiglu_forward(&p, out, act, x, 1);
    const float want[2] = {-1.4621172f, -2.1931758f};
    const float want_act[3] = {1, -1, -0.7310586f};
    assert_floats_near(act, want_act, 3, 1e-6, "act");
    assert_floats_near(out, want, 2, 1e-6, "out");
    cr_assert_eq(swiglu_param_count(&p), 6);
}

Test(swiglu, closed_gate_gives_zero) {
    // W_1 = 0: a = 0, SiLU(0) = 0, so out = 0 whatever W_3, W_2 and x are.
    enum { N = 3, C = 4, F = 6 };
    float w1[C * F] = {0}, w3[C * F], w2[F * C], x[N * C], out[N * C], act[N * 3 * F];
    random_fill(w3, C * F, 1, 1.0f);
    random_fill(w2, F * C, 2, 1.0f);
    random_fill(x, N * C, 3, 1.0f);
    swiglu_params_t p = {.C = C, .F = F, .w1 = w1, .w3 = w3, .w2 = w2};
    swiglu_forward(&p, out, act, x, N);
    for (int i = 0; i < N * C; i++) cr_assert_eq(out[i], 0.0f, "out[%d]", i);
}

enum { SN = 3, SC = 4, SF = 5 };
typedef struct {
    float w1[SC * SF], w3[SC * SF], w2[SF * SC], x[SN * SC], r[SN * SC];
} sw_ctx;

static double sw_loss(void *q) {
    sw_ctx *c = q;
    swiglu_params_t p = {.C = SC, .F = SF, .w1 = c->w1, .w3 = c->w3, .w2 = c->w2};
    float out[SN * SC], act[SN * 3 * SF];
    swiglu_forward(&p, out, act, c->x, SN);
    return dot_r(c->r, out, SN * SC);
}

Test(swiglu, backward_matches_finite_differences_and_accumulates) {
    sw_ctx c;
    random_fill(c.w1, SC * SF, 4, 1.0f);
    random_fill(c.w3, SC * SF, 5, 1.0f);
    random_fill(c.w2, SF * SC, 6, 1.0f);
    random_fill(c.x, SN * SC, 7, 1.0f);
    random_fill(c.r, SN * SC, 8, 1.0f);
    swiglu_params_t p = {.C = SC, .F = SF, .w1 = c.w1, .w3 = c.w3, .w2 = c.w2};
    float gw1[SC * SF] = {0}, gw3[SC * SF] = {0}, gw2[SF * SC] = {0}, dx[SN * SC] = {0};
    swiglu_params_t g = {.C = SC, .F = SF, .w1 = gw1, .w3 = gw3, .w2 = gw2};
    float out[SN * SC], act[SN * 3 * SF];
    swiglu_forward(&p, out, act, c.x, SN);
    float scratch[2 * SN * SF];
    cr_assert_eq(swiglu_scratch_floats(&p, SN), 2 * SN * SF);
    swiglu_backward(&p, &g, dx, c.r, c.x, act, SN, scratch);
    check_grad_eps("dx", c.x, dx, SN * SC, sw_loss, &c, 1e-2f);
    check_grad_eps("dw1", c.w1, gw1, SC * SF, sw_loss, &c, 1e-2f);
    check_grad_eps("dw3", c.w3, gw3, SC * SF, sw_loss, &c, 1e-2f);
    check_grad_eps("dw2", c.w2, gw2, SF * SC, sw_loss, &c, 1e-2f);
    float keep[SC * SF];
    memcpy(keep, gw1, sizeof keep);
    swiglu_backward(&p, &g, NULL, c.r, c.x, act, SN, scratch);   // adds a second copy
    for (int i = 0; i < SC * SF; i++) cr_assert_float_eq(gw1[i], 2 * keep[i], 1e-5);
}
