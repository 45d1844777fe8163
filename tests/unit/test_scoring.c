// test_scoring.c -- dot, scaled dot, cosine and additive scores; hard attention.
#include <criterion/criterion.h>
#include <math.h>

#include "base/rng.h"
#include "attention/scoring.h"
#include "attention/softmax.h"

#include "helpers.h"


// q = (1, 2, 3), k = (4, -5, 6): q . k = 4 - 10 + 18 = 12.
static const float Q3[3] = {1.0f, 2.0f, 3.0f};
static const float K3[3] = {4.0f, -5.0f, 6.0f};

Test(scoring, dot_by_hand) {
    cr_assert_float_eq(score_dot(Q3, K3, 3), 12.0f, EPS);
}

Test(scoring, scaled_dot_by_hand) {
    // 12 / sqrt(3) = 6.928203
    cr_assert_float_eq(score_scaled_dot(Q3, K3, 3), 6.928203f, EPS);
}

Test(scoring, cosine_by_hand) {
    // |q| = sqrt(1 + 4 + 9) = sqrt(14), |k| = sqrt(16 + 25 + 36) = sqrt(77),
    // cos = 12 / sqrt(14 * 77) = 12 / sqrt(1078) = 12 / 32.832910 = 0.365487.
    cr_assert_float_eq(score_cosine(Q3, K3, 3), 0.365487f, EPS);
}

Test(scoring, scaled_dot_is_dot_over_sqrt_d) {
    rng_t rng;
    rng_seed(&rng, 7);
    for (int d = 1; d <= 64; d *= 2) {
        float q[64], k[64];
        rng_fill_normal(&rng, q, d, 0.0f, 1.0f);
        rng_fill_normal(&rng, k, d, 0.0f, 1.0f);
        float expect = score_dot(q, k, d) / sqrtf((float)d);
        cr_assert_float_eq(score_scaled_dot(q, k, d), expect, 1e-4f, "d = %d", d);
    }
}

Test(scoring, cosine_ignores_length) {
    // Stretching either vector by a positive factor leaves the angle alone,
    // while the dot product grows by the same factor.
    float k3[3], q2[3];
    for (int i = 0; i < 3; i++) {
        k3[i] = 3.0f * K3[i];
        q2[i] = 0.5f * Q3[i];
    }
    float c = score_cosine(Q3, K3, 3);
    cr_assert_float_eq(c, 0.365487f, EPS);   // the hand value above
    cr_assert_float_eq(score_cosine(Q3, k3, 3), c, EPS);
    cr_assert_float_eq(score_cosine(q2, K3, 3), c, EPS);
    cr_assert_float_eq(score_dot(Q3, k3, 3), 3.0f * score_dot(Q3, K3, 3), 1e-4f);
}

Test(scoring, cosine_extremes) {
    float neg[3] = {-Q3[0], -Q3[1], -Q3[2]};
    float zero[3] = {0.0f, 0.0f, 0.0f};
    float e1[2] = {1.0f, 0.0f}, e2[2] = {0.0f, 2.0f};
    cr_assert_float_eq(score_cosine(Q3, Q3, 3), 1.0f, EPS);     // same direction
    cr_assert_float_eq(score_cosine(Q3, neg, 3), -1.0f, EPS);   // opposite
    cr_assert_float_eq(score_cosine(e1, e2, 2), 0.0f, EPS);     // orthogonal
    cr_assert_float_eq(score_cosine(Q3, zero, 3), 0.0f, EPS);   // no direction
    cr_assert(!isnan(score_cosine(zero, zero, 3)));
}

Test(scoring, cosine_matches_definition_and_stays_in_range) {
    rng_t rng;
    rng_seed(&rng, 11);
    for (int t = 0; t < 200; t++) {
        float q[5], k[5];
        rng_fill_normal(&rng, q, 5, 0.0f, 10.0f);
        rng_fill_normal(&rng, k, 5, 0.0f, 10.0f);
        double qk = 0.0, qq = 0.0, kk = 0.0;   // the definition, in double
        for (int i = 0; i < 5; i++) {
            qk += (double)q[i] * k[i];
            qq += (double)q[i] * q[i];
            kk += (double)k[i] * k[i];
        }
        float c = score_cosine(q, k, 5);
        cr_assert_float_eq(c, qk / sqrt(qq * kk), 1e-5, "trial %d", t);
        cr_assert(c >= -1.0f - EPS && c <= 1.0f + EPS, "cos = %f", c);
    }
}

Test(scoring, additive_by_hand) {
    // d_q = 2, d_k = 1, d_h = 2 (query and key of different sizes).
    // W_q = I, W_k = (1, -1)^T, v = (1, 2), q = (0.5, -0.5), k = (0.5):
    // W_q q + W_k k = (0.5 + 0.5, -0.5 - 0.5) = (1, -1)
    // score = 1 tanh(1) + 2 tanh(-1) = -tanh(1) = -0.761594.
    const float w_q[4] = {1.0f, 0.0f, 0.0f, 1.0f};
    const float w_k[2] = {1.0f, -1.0f};
    const float v[2] = {1.0f, 2.0f};
    const float q[2] = {0.5f, -0.5f}, k[1] = {0.5f};
    additive_params_t p = {w_q, w_k, v, 2, 1, 2};
    cr_assert_float_eq(score_additive(&p, q, k), -0.761594f, EPS);
}

Test(scoring, additive_is_bounded_by_v) {
    // tanh is in (-1, 1), so |v^T tanh(.)| <= sum_h |v_h| however large q, k are.
    rng_t rng;
    rng_seed(&rng, 3);
    float w_q[12], w_k[12], v[3], q[4], k[4];
    rng_fill_normal(&rng, w_q, 12, 0.0f, 1.0f);
    rng_fill_normal(&rng, w_k, 12, 0.0f, 1.0f);
    rng_fill_normal(&rng, v, 3, 0.0f, 1.0f);
    additive_params_t p = {w_q, w_k, v, 4, 4, 3};
    double bound = fabs(v[0]) + fabs(v[1]) + fabs(v[2]);
    for (int t = 0; t < 100; t++) {
        rng_fill_normal(&rng, q, 4, 0.0f, 100.0f);
        rng_fill_normal(&rng, k, 4, 0.0f, 100.0f);
        cr_assert(fabs(score_additive(&p, q, k)) <= bound + 1e-5);
    }
}

Test(scoring, additive_with_zero_v_is_zero) {
    const float w[4] = {1.0f, 2.0f, 3.0f, 4.0f}, v[2] = {0.0f, 0.0f};
    const float q[2] = {1.0f, -1.0f}, k[2] = {2.0f, 0.5f};
    additive_params_t p = {w, w, v, 2, 2, 2};
    cr_assert_float_eq(score_additive(&p, q, k), 0.0f, EPS);
}

Test(scoring, hard_attention_is_one_hot_at_argmax) {
    const float s[5] = {0.1f, 2.0f, -1.0f, 1.9f, 0.0f};
    float w[5];
    score_hard(s, w, 5);
    float sum = 0.0f;
    for (int j = 0; j < 5; j++) {
        cr_assert_float_eq(w[j], j == 1 ? 1.0f : 0.0f, 0.0f);
        sum += w[j];
    }
    cr_assert_float_eq(sum, 1.0f, 0.0f);
}

Test(scoring, hard_attention_breaks_ties_by_first) {
    const float s[4] = {1.0f, 3.0f, 3.0f, 0.0f};
    float w[4];
    score_hard(s, w, 4);
    cr_assert_float_eq(w[1], 1.0f, 0.0f);
    cr_assert_float_eq(w[2], 0.0f, 0.0f);
}

Test(scoring, soft_weights_sum_to_one_and_follow_scores) {
    // Whatever the scoring function, softmax turns scores into weights that
    // are positive, sum to 1 and keep the order of the scores.
    rng_t rng;
    rng_seed(&rng, 5);
    float q[6], keys[8 * 6], w[8];
    rng_fill_normal(&rng, q, 6, 0.0f, 1.0f);
    rng_fill_normal(&rng, keys, 8 * 6, 0.0f, 1.0f);
    for (int j = 0; j < 8; j++) w[j] = score_cosine(q, keys + j * 6, 6);
    float s[8];
    for (int j = 0; j < 8; j++) s[j] = w[j];
    softmax(w, 8);
    double sum = 0.0;
    for (int j = 0; j < 8; j++) {
        cr_assert(w[j] > 0.0f);
        sum += w[j];
        for (int l = 0; l < 8; l++)
            if (s[j] > s[l]) cr_assert(w[j] >= w[l]);
    }
    cr_assert_float_eq(sum, 1.0, 1e-6);
}
