// test_block.c -- Add & Norm, the encoder block and the decoder block.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "layers/block.h"
#include "base/rng.h"

#include "helpers.h"


enum { D = 16, H = 4, F = 32 };

// ---------------------------------------------------------------------------
// Add & Norm

Test(block, add_norm_by_hand) {
    // x = (0, 1, 1, 2), sub = (1, 1, 2, 2): x + sub = (1, 2, 3, 4), whose layer
    // norm (see test_layernorm) is (-1.341635, -0.447212, 0.447212, 1.341635).
    layernorm_params_t ln;
    cr_assert_eq(layernorm_alloc(&ln, 4), 0);
    const float x[4] = {0, 1, 1, 2}, sub[4] = {1, 1, 2, 2};
    const float expect[4] = {-1.341635f, -0.447212f, 0.447212f, 1.341635f};
    float y[4];
    layernorm_add_norm(x, sub, &ln, y, 1);
    for (int j = 0; j < 4; j++) cr_assert_float_eq(y[j], expect[j], EPS, "j = %d", j);
    layernorm_free(&ln);
}

Test(block, add_norm_in_place) {
    layernorm_params_t ln;
    cr_assert_eq(layernorm_alloc(&ln, 4), 0);
    float x[8] = {0, 1, 1, 2, 3, -1, 0, 5}, sub[8] = {1, 1, 2, 2, 0, 0, 1, 1}, y[8];
    layernorm_add_norm(x, sub, &ln, y, 2);
    layernorm_add_norm(x, sub, &ln, x, 2);   // y may be x
    cr_assert(memcmp(x, y, sizeof y) == 0);
    layernorm_free(&ln);
}

// ---------------------------------------------------------------------------
// encoder block

static void make_encoder(encoder_block_t *b, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    cr_assert_eq(encoder_block_alloc(b, D, H, F), 0);
    encoder_block_init(b, &rng);
}

Test(block, alloc_rejects_bad_sizes) {
    encoder_block_t e;
    decoder_block_t d;
    cr_assert_eq(encoder_block_alloc(&e, 10, 3, 8), -1);
    encoder_block_free(&e);
    cr_assert_eq(decoder_block_alloc(&d, 10, 3, 8), -1);
    decoder_block_free(&d);
    cr_assert_eq(encoder_block_alloc(&e, 8, 2, 0), -1);
    encoder_block_free(&e);
}

Test(block, param_counts) {
    // Encoder at 512 / 8 / 2048: attention 4 * 512^2 + 512 = 1049088,
    // FFN 2 * 512 * 2048 + 2048 + 512 = 2099712, two norms 4 * 512 = 2048:
    // 3150848. Decoder: two attentions, the FFN and three norms:
    // 2 * 1049088 + 2099712 + 3072 = 4200960.
    encoder_block_t e;
    decoder_block_t d;
    cr_assert_eq(encoder_block_alloc(&e, 512, 8, 2048), 0);
    cr_assert_eq(decoder_block_alloc(&d, 512, 8, 2048), 0);
    cr_assert_eq(encoder_block_param_count(&e), 3150848L);
    cr_assert_eq(decoder_block_param_count(&d), 4200960L);
    encoder_block_free(&e);
    decoder_block_free(&d);
}

Test(block, encoder_is_attention_then_ffn_each_with_add_norm) {
    enum { N = 5 };
    encoder_block_t b;
    make_encoder(&b, 1);
    rng_t rng;
    rng_seed(&rng, 2);
    float x[N * D], y[N * D], sub[N * D], h1[N * D], hid[N * F], expect[N * D];
    float w[H * N * N], w_ref[H * N * N];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    cr_assert_eq(encoder_block_forward(&b, x, N, NULL, y, w), 0);
    cr_assert_eq(mha_forward(&b.attn, x, N, x, N, NULL, sub, w_ref), 0);
    layernorm_add_norm(x, sub, &b.norm1, h1, N);
    ffn_forward(&b.ffn, h1, hid, sub, N);
    layernorm_add_norm(h1, sub, &b.norm2, expect, N);
    cr_assert(mat_max_abs_diff(y, expect, N * D) == 0.0);
    cr_assert(mat_max_abs_diff(w, w_ref, H * N * N) == 0.0);
    encoder_block_free(&b);
}

Test(block, encoder_output_rows_are_normalised) {
    enum { N = 6 };
    encoder_block_t b;
    make_encoder(&b, 3);
    rng_t rng;
    rng_seed(&rng, 4);
    float x[N * D], y[N * D];
    rng_fill_normal(&rng, x, N * D, 2.0f, 3.0f);
    cr_assert_eq(encoder_block_forward(&b, x, N, NULL, y, NULL), 0);
    for (int i = 0; i < N; i++) {
        double mean, var;
        row_mean_var(y + i * D, D, &mean, &var);
        cr_assert(fabs(mean) < 1e-5 && fabs(var - 1.0) < 1e-3, "row %d", i);
    }
    encoder_block_free(&b);
}

Test(block, encoder_is_permutation_equivariant) {
    // No positions anywhere: shuffling the tokens shuffles the outputs.
    enum { N = 4 };
    const int perm[N] = {2, 3, 0, 1};
    encoder_block_t b;
    make_encoder(&b, 5);
    rng_t rng;
    rng_seed(&rng, 6);
    float x[N * D], xp[N * D], y[N * D], yp[N * D];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    for (int i = 0; i < N; i++) memcpy(xp + i * D, x + perm[i] * D, sizeof(float) * D);
    cr_assert_eq(encoder_block_forward(&b, x, N, NULL, y, NULL), 0);
    cr_assert_eq(encoder_block_forward(&b, xp, N, NULL, yp, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert(mat_max_abs_diff(yp + i * D, y + perm[i] * D, D) < 1e-5, "row %d", i);
    encoder_block_free(&b);
}

Test(block, encoder_every_token_sees_every_token) {
    enum { N = 4 };
    encoder_block_t b;
    make_encoder(&b, 7);
    rng_t rng;
    rng_seed(&rng, 8);
    float x[N * D], y[N * D], y2[N * D];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    cr_assert_eq(encoder_block_forward(&b, x, N, NULL, y, NULL), 0);
    for (int j = 0; j < D; j++) x[(N - 1) * D + j] += 1.0f;   // change the last token
    cr_assert_eq(encoder_block_forward(&b, x, N, NULL, y2, NULL), 0);
    for (int i = 0; i < N; i++)
        cr_assert(mat_max_abs_diff(y + i * D, y2 + i * D, D) > 1e-4, "row %d", i);
    encoder_block_free(&b);
}

// ---------------------------------------------------------------------------
// decoder block

static void make_decoder(decoder_block_t *b, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    cr_assert_eq(decoder_block_alloc(b, D, H, F), 0);
    decoder_block_init(b, &rng);
}

Test(block, decoder_causal_mask_future_tokens_change_nothing_before) {
    // Changing target token t changes output rows t.. only; rows < t are
    // bit-for-bit the same, and no self-attention weight lands on the future.
    enum { N = 5, M = 3 };
    decoder_block_t b;
    make_decoder(&b, 9);
    rng_t rng;
    rng_seed(&rng, 10);
    float x[N * D], enc[M * D], y[N * D], y2[N * D], sw[H * N * N], cw[H * N * M];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    rng_fill_normal(&rng, enc, M * D, 0.0f, 1.0f);
    cr_assert_eq(decoder_block_forward(&b, x, N, enc, M, NULL, NULL, y, sw, cw), 0);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < N; i++)
            for (int j = i + 1; j < N; j++)
                cr_assert_float_eq(sw[(h * N + i) * N + j], 0.0f, 0.0f);
    for (int t = 0; t < N; t++) {
        float x2[N * D];
        memcpy(x2, x, sizeof x);
        for (int j = 0; j < D; j++) x2[t * D + j] += 0.7f;
        int rc = decoder_block_forward(&b, x2, N, enc, M, NULL, NULL, y2, NULL, NULL);
        cr_assert_eq(rc, 0);
        for (int i = 0; i < t; i++)
            cr_assert(mat_max_abs_diff(y + i * D, y2 + i * D, D) == 0.0, "t %d row %d",
                      t, i);
        cr_assert(mat_max_abs_diff(y + t * D, y2 + t * D, D) > 1e-4, "t %d row %d", t,
                  t);
    }
    decoder_block_free(&b);
}

Test(block, decoder_cross_attention_sees_all_of_the_encoder) {
    enum { N = 3, M = 4 };
    decoder_block_t b;
    make_decoder(&b, 11);
    rng_t rng;
    rng_seed(&rng, 12);
    float x[N * D], enc[M * D], y[N * D], y2[N * D], cw[H * N * M];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    rng_fill_normal(&rng, enc, M * D, 0.0f, 1.0f);
    cr_assert_eq(decoder_block_forward(&b, x, N, enc, M, NULL, NULL, y, NULL, cw), 0);
    assert_row_stochastic(cw, H * N, M, 1e-6);   // cross-attention: M keys
    for (int j = 0; j < D; j++) enc[(M - 1) * D + j] += 1.0f;   // last source row
    int rc = decoder_block_forward(&b, x, N, enc, M, NULL, NULL, y2, NULL, NULL);
    cr_assert_eq(rc, 0);
    for (int i = 0; i < N; i++)   // even the first target token sees it
        cr_assert(mat_max_abs_diff(y + i * D, y2 + i * D, D) > 1e-4, "row %d", i);
    decoder_block_free(&b);
}

Test(block, decoder_masks_combine_with_causal) {
    // A self mask hiding target token 0 from everyone except itself, and a
    // cross mask hiding source token 1.
    enum { N = 3, M = 3 };
    decoder_block_t b;
    make_decoder(&b, 13);
    rng_t rng;
    rng_seed(&rng, 14);
    unsigned char self_mask[N * N], cross_mask[N * M];
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) self_mask[i * N + j] = j != 0 || i == 0;
        for (int j = 0; j < M; j++) cross_mask[i * M + j] = j != 1;
    }
    float x[N * D], enc[M * D], y[N * D], sw[H * N * N], cw[H * N * M];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    rng_fill_normal(&rng, enc, M * D, 0.0f, 1.0f);
    int rc = decoder_block_forward(&b, x, N, enc, M, self_mask, cross_mask, y, sw, cw);
    cr_assert_eq(rc, 0);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < N; j++)
                if (j > i || (j == 0 && i > 0))
                    cr_assert_float_eq(sw[(h * N + i) * N + j], 0.0f, 0.0f);
            cr_assert_float_eq(cw[(h * N + i) * M + 1], 0.0f, 0.0f);
        }
    decoder_block_free(&b);
}

Test(block, decoder_first_token_attends_only_to_itself) {
    // Row 0 of causal self-attention has one visible key: weight exactly 1.
    enum { N = 4, M = 2 };
    decoder_block_t b;
    make_decoder(&b, 15);
    rng_t rng;
    rng_seed(&rng, 16);
    float x[N * D], enc[M * D], y[N * D], sw[H * N * N];
    rng_fill_normal(&rng, x, N * D, 0.0f, 1.0f);
    rng_fill_normal(&rng, enc, M * D, 0.0f, 1.0f);
    cr_assert_eq(decoder_block_forward(&b, x, N, enc, M, NULL, NULL, y, sw, NULL), 0);
    for (int h = 0; h < H; h++) cr_assert_float_eq(sw[h * N * N], 1.0f, 0.0f);
    decoder_block_free(&b);
}
