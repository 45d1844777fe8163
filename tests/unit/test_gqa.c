// test_gqa.c -- causal grouped-query attention: the first token sees only
// itself, the future changes nothing, GQA equals MHA with its key/value heads
// repeated, and the backward pass against finite differences of L = sum(r * out).
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "layers/gqa.h"

#include "helpers.h"

enum { B = 2, T = 4, NH = 4, NKV = 2, HS = 3 };
enum { QN = B * T * NH * HS, KN = B * T * NKV * HS, AN = B * NH * T * T };

Test(gqa, first_token_sees_itself_and_rows_sum_to_one) {
    float q[QN], k[KN], v[KN], out[QN], att[AN];
    random_fill(q, QN, 1, 1.0f);
    random_fill(k, KN, 2, 1.0f);
    random_fill(v, KN, 3, 1.0f);
    gqa_shape_t s = {B, T, NH, NKV, HS};
    cr_assert_eq(gqa_forward(&s, out, att, q, k, v), 0);
    assert_row_stochastic(att, B * NH * T, T, 1e-6);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < NH; h++) {
            // t = 0 attends to t2 = 0 alone: out = v of its key/value head h / 2
            const float *o = out + (b * T) * NH * HS + h * HS;
            const float *v0 = v + (b * T) * NKV * HS + (h / 2) * HS;
            assert_floats_near(o, v0, HS, 1e-6, "out[t=0]");
            for (int t = 0; t < T; t++)
                for (int t2 = t + 1; t2 < T; t2++)
                    cr_assert_eq(att[((b * NH + h) * T + t) * T + t2], 0.0f);
        }
}

Test(gqa, the_future_changes_nothing) {
    float q[QN], k[KN], v[KN], out[QN], out2[QN], att[AN];
    random_fill(q, QN, 4, 1.0f);
    random_fill(k, KN, 5, 1.0f);
    random_fill(v, KN, 6, 1.0f);
    gqa_shape_t s = {B, T, NH, NKV, HS};
    gqa_forward(&s, out, att, q, k, v);
    for (int b = 0; b < B; b++)      // change the last token's key and value
        for (int i = 0; i < NKV * HS; i++) {
            k[(b * T + T - 1) * NKV * HS + i] += 5.0f;
            v[(b * T + T - 1) * NKV * HS + i] -= 5.0f;
        }
    gqa_forward(&s, out2, att, q, k, v);
    for (int b = 0; b < B; b++)
        assert_floats_near(out2 + b * T * NH * HS, out + b * T * NH * HS,
                           (T - 1) * NH * HS, 0, "out before the last token");
}

// k (B, T, NKV HS) -> (B, T, NH HS), every key/value head repeated NH / NKV times.
static void repeat_heads(const float *kv, float *full) {
    for (int r = 0; r < B * T; r++)
        for (int h = 0; h < NH; h++)
            memcpy(full + (r * NH + h) * HS, kv + (r * NKV + h / (NH / NKV)) * HS,
                   HS * sizeof(float));
}

Test(gqa, equals_mha_with_repeated_heads_and_sums_their_gradients) {
    float q[QN], k[KN], v[KN], kf[QN], vf[QN], dout[QN];
    random_fill(q, QN, 7, 1.0f);
    random_fill(k, KN, 8, 1.0f);
    random_fill(v, KN, 9, 1.0f);
    random_fill(dout, QN, 10, 1.0f);
    repeat_heads(k, kf);
    repeat_heads(v, vf);
    gqa_shape_t g = {B, T, NH, NKV, HS}, m = {B, T, NH, NH, HS};
    float out_g[QN], out_m[QN], att_g[AN], att_m[AN], scratch[T];
    gqa_forward(&g, out_g, att_g, q, k, v);
    gqa_forward(&m, out_m, att_m, q, kf, vf);
    assert_floats_near(out_g, out_m, QN, 1e-6, "out");
    float dq_g[QN] = {0}, dk_g[KN] = {0}, dv_g[KN] = {0};
    float dq_m[QN] = {0}, dk_m[QN] = {0}, dv_m[QN] = {0};
    gqa_backward(&g, dq_g, dk_g, dv_g, dout, q, k, v, att_g, scratch);
    gqa_backward(&m, dq_m, dk_m, dv_m, dout, q, kf, vf, att_m, scratch);
    assert_floats_near(dq_g, dq_m, QN, 1e-6, "dq");
    float dk_sum[KN] = {0}, dv_sum[KN] = {0};
    for (int r = 0; r < B * T; r++)
        for (int h = 0; h < NH; h++)
            for (int i = 0; i < HS; i++) {
                dk_sum[(r * NKV + h / 2) * HS + i] += dk_m[(r * NH + h) * HS + i];
                dv_sum[(r * NKV + h / 2) * HS + i] += dv_m[(r * NH + h) * HS + i];
            }
    assert_floats_near(dk_g, dk_sum, KN, 1e-5, "dk");
    assert_floats_near(dv_g, dv_sum, KN, 1e-5, "dv");
}

Test(gqa, refuses_heads_that_do_not_divide) {
    gqa_shape_t s = {1, 2, 4, 3, 2};
    float x[64] = {0}, scratch[2];
    cr_assert_eq(gqa_forward(&s, x, x, x, x, x), -1);
    cr_assert_eq(gqa_backward(&s, x, x, x, x, x, x, x, x, scratch), -1);
    s.NKV = 0;
    cr_assert_eq(gqa_check(&s), -1);
    // 2 (k, v) x 32 layers x 8 heads x 128 x 2 bytes
    cr_assert_eq(gqa_kv_bytes_per_token(32, 8, 128, 2), 131072);
}

// k and v sized for NKV = NH, the largest case.
typedef struct { float q[QN], k[QN], v[QN], r[QN]; int nkv; } g_ctx;

static double g_loss(void *p) {
    g_ctx *c = p;
    gqa_shape_t s = {B, T, NH, c->nkv, HS};
    float out[QN], att[AN];
    gqa_forward(&s, out, att, c->q, c->k, c->v);
    return dot_r(c->r, out, QN);
}

static void fd_case(int nkv) {
    g_ctx c = {.nkv = nkv};
    int kn = B * T * nkv * HS;
    random_fill(c.q, QN, 11, 1.0f);
    random_fill(c.k, kn, 12, 1.0f);
    random_fill(c.v, kn, 13, 1.0f);
    random_fill(c.r, QN, 14, 1.0f);
    gqa_shape_t s = {B, T, NH, nkv, HS};
    float out[QN], att[AN], scratch[T], dq[QN] = {0}, dk[QN] = {0}, dv[QN] = {0};
    gqa_forward(&s, out, att, c.q, c.k, c.v);
    cr_assert_eq(gqa_scratch_floats(&s), T);
    gqa_backward(&s, dq, dk, dv, c.r, c.q, c.k, c.v, att, scratch);
    check_grad_eps("dq", c.q, dq, QN, g_loss, &c, 1e-2f);
    check_grad_eps("dk", c.k, dk, kn, g_loss, &c, 1e-2f);
    check_grad_eps("dv", c.v, dv, kn, g_loss, &c, 1e-2f);
    float dv2[QN];
    memcpy(dv2, dv, sizeof dv);
    gqa_backward(&s, dq, dk, dv2, c.r, c.q, c.k, c.v, att, scratch);   // adds again
    for (int i = 0; i < kn; i++) cr_assert_float_eq(dv2[i], 2 * dv[i], 1e-5);
}

Test(gqa, backward_matches_finite_differences_gqa) { fd_case(NKV); }
Test(gqa, backward_matches_finite_differences_mqa) { fd_case(1); }
Test(gqa, backward_matches_finite_differences_mha) { fd_case(NH); }
