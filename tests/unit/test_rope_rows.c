// test_rope_rows.c -- RoPE per head: the same numbers as rope_apply, lengths
// kept, and the backward pass against finite differences of L = sum(r * out).
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "position/rope.h"
#include "position/rope_rows.h"

#include "helpers.h"

enum { T = 4, NH = 3, HS = 6 };

Test(rope_rows, equals_rope_apply_on_every_head) {
    float x[T * NH * HS], y[T * NH * HS];
    random_fill(x, T * NH * HS, 1, 1.0f);
    memcpy(y, x, sizeof x);
    cr_assert_eq(rope_rows_forward(x, T, NH, HS, 5, ROPE_BASE), 0);
    for (int t = 0; t < T; t++)
        for (int h = 0; h < NH; h++) {
            float row[HS];
            memcpy(row, y + (t * NH + h) * HS, sizeof row);
            rope_apply(row, 1, HS, 5 + t, ROPE_BASE);
            for (int i = 0; i < HS; i++)
                cr_assert_eq(x[(t * NH + h) * HS + i], row[i], "t %d h %d i %d", t, h,
                             i);
        }
}

Test(rope_rows, keeps_lengths_and_refuses_odd_heads) {
    float x[T * NH * HS], y[T * NH * HS];
    random_fill(x, T * NH * HS, 2, 1.0f);
    memcpy(y, x, sizeof x);
    rope_rows_forward(x, T, NH, HS, 0, ROPE_BASE);
    for (int r = 0; r < T * NH; r++)
        cr_assert_float_eq(mat_norm(x + r * HS, HS), mat_norm(y + r * HS, HS), 1e-5);
    cr_assert_eq(rope_rows_forward(x, T, NH, 5, 0, ROPE_BASE), -1);
    cr_assert_eq(rope_rows_backward(y, x, T, NH, 5, 0, ROPE_BASE), -1);
}

typedef struct { float x[T * NH * HS], r[T * NH * HS]; long pos0; } rr_ctx;

static double rr_loss(void *p) {
    rr_ctx *c = p;
    float y[T * NH * HS];
    memcpy(y, c->x, sizeof y);
    rope_rows_forward(y, T, NH, HS, c->pos0, ROPE_BASE);
    return dot_r(c->r, y, T * NH * HS);
}

Test(rope_rows, backward_matches_finite_differences_and_inverts) {
    rr_ctx c = {.pos0 = 7};
    random_fill(c.x, T * NH * HS, 3, 1.0f);
    random_fill(c.r, T * NH * HS, 4, 1.0f);
    float dx[T * NH * HS] = {0};
    cr_assert_eq(rope_rows_backward(dx, c.r, T, NH, HS, c.pos0, ROPE_BASE), 0);
    check_grad_eps("dx", c.x, dx, T * NH * HS, rr_loss, &c, 1e-2f);
    // R^T R = I: the backward of a rotated vector gives the vector back.
    float y[T * NH * HS], back[T * NH * HS] = {0};
    memcpy(y, c.x, sizeof y);
    rope_rows_forward(y, T, NH, HS, c.pos0, ROPE_BASE);
    rope_rows_backward(back, y, T, NH, HS, c.pos0, ROPE_BASE);
    assert_floats_near(back, c.x, T * NH * HS, 1e-5, "R^T R x");
}
