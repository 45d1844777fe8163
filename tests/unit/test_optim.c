// test_optim.c -- Adam's first steps by hand; clipping.
#include <criterion/criterion.h>
#include <math.h>

#include "train/optim.h"

// Step 1: m = 0.1 g, v = 0.001 g^2; corrected m / (sqrt(v) + eps) = g / |g|
// (eps aside), so every weight moves by lr against the sign of its gradient.
Test(optim, first_adam_step_moves_by_lr) {
    float w[3] = {1, 1, 1}, g[3] = {0.5f, -2, 1e-3f}, m[3] = {0}, v[3] = {0};
    optim_adam_t o = {.lr = 0.1f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f, .m = m,
                      .v = v, .n = 3};
    optim_adam_step(&o, w, g);
    cr_assert_float_eq(w[0], 0.9f, 1e-6);
    cr_assert_float_eq(w[1], 1.1f, 1e-6);
    cr_assert_float_eq(w[2], 0.9f, 1e-4);
    cr_assert_eq(o.step, 1);
}

// Step 2 with gradient 1 then 3: m = 0.9*0.1 + 0.1*3 = 0.39, m^ = 0.39/0.19;
// v = 0.999*0.001 + 0.001*9 = 0.009999, v^ = v / (1 - 0.999^2) = 0.009999/0.001999
// w = 0 - 0.01 - 0.01 * (0.39/0.19) / sqrt(0.009999/0.001999)
Test(optim, second_adam_step_by_hand) {
    float w = 0, g1 = 1, g2 = 3, m = 0, v = 0;
    optim_adam_t o = {.lr = 0.01f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 0, .m = &m,
                      .v = &v, .n = 1};
    optim_adam_step(&o, &w, &g1);
    optim_adam_step(&o, &w, &g2);
    double want = -0.01 - 0.01 * (0.39 / 0.19) / sqrt(0.009999 / 0.001999);
    cr_assert_float_eq(w, want, 1e-6);
}

Test(optim, clipping_scales_to_the_limit) {
    float g[2] = {3, 4};
    cr_assert_float_eq(optim_clip_norm(g, 2, 1.0), 5.0, 1e-12);
    cr_assert_float_eq(g[0], 0.6f, 1e-6);
    cr_assert_float_eq(g[1], 0.8f, 1e-6);
    cr_assert_float_eq(optim_clip_norm(g, 2, 10.0), 1.0, 1e-6);   // no change
    cr_assert_float_eq(g[0], 0.6f, 1e-6);
}

// AdamW's decay w *= 1 - lr wd, with a zero gradient (no Adam move): only the
// parameters the mask marks decay; without a mask every one does.
Test(optim, adamw_decays_what_the_mask_marks) {
    float w[2] = {1, 1}, g[2] = {0, 0}, m[2] = {0}, v[2] = {0};
    const unsigned char mask[2] = {1, 0};
    optim_adam_t o = {.lr = 0.1f, .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f,
                      .weight_decay = 0.5f, .decay = mask, .m = m, .v = v, .n = 2};
    optim_adam_step(&o, w, g);
    cr_assert_float_eq(w[0], 0.95f, 1e-7);
    cr_assert_float_eq(w[1], 1.0f, 1e-7);
    o.decay = NULL;
    optim_adam_step(&o, w, g);
    cr_assert_float_eq(w[0], 0.95f * 0.95f, 1e-7);
    cr_assert_float_eq(w[1], 0.95f, 1e-7);
}
