// test_seq2seq.c -- the whole encoder-decoder: gradients against finite
// differences (with and without attention), padding, greedy and beam decoding.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "base/rng.h"
#include "models/seq2seq.h"

enum { B = 3, T = 5, U = 4 };

// Three sources of lengths 5, 3, 1 (padded), targets of lengths 4, 2, 3.
static const int SRC[B * T] = {3, 4, 5, 6, 7, 8, 3, 9, 0, 0, 5, 0, 0, 0, 0};
static const unsigned char MASK[B * T] = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0};
static const int TIN[B * U] = {1, 5, 6, 3, 1, 4, 0, 0, 1, 7, 7, 0};
static const int TOUT[B * U] = {5, 6, 3, 2, 4, 2, 0, 0, 7, 7, 2, 0};

static s2s_config_t config(int attention) {
    return (s2s_config_t){.v_src = 10, .v_tgt = 9, .e = 3, .h = 4, .a = 3,
                          .attention = attention, .b_max = B, .t_max = T, .u_max = U};
}

static double loss_of(const s2s_config_t *c, float *buf, s2s_work_t *w) {
    s2s_params_t p;
    s2s_bind(&p, buf, c);
    s2s_batch_t bt = {.b = B, .t_len = T, .u_len = U, .src = SRC, .src_mask = MASK,
                      .tgt_in = TIN, .tgt_out = TOUT};
    int count;
    return s2s_forward(&p, c, &bt, w, &count) / count;
}

// Every parameter's gradient (the mean loss) against a central difference.
static void gradcheck(int attention) {
    s2s_config_t c = config(attention);
    long n = s2s_param_count(&c);
    float *buf = malloc((size_t)n * sizeof *buf),
          *grad = calloc((size_t)n, sizeof *grad);
    s2s_work_t *w = s2s_work_new(&c);
    cr_assert(buf && grad && w);
    rng_t rng;
    rng_seed(&rng, 7);
    s2s_init(buf, &c, &rng);
    for (long i = 0; i < n; i++) buf[i] *= 2.0f;   // livelier gradients
    s2s_params_t p, g;
    s2s_bind(&p, buf, &c);
    s2s_bind(&g, grad, &c);
    s2s_batch_t bt = {.b = B, .t_len = T, .u_len = U, .src = SRC, .src_mask = MASK,
                      .tgt_in = TIN, .tgt_out = TOUT};
    int count;
    s2s_forward(&p, &c, &bt, w, &count);
    cr_assert_eq(count, 9);
    s2s_backward(&p, &g, &c, &bt, w, 1.0f / count);
    double worst = 0.0;
    for (long i = 0; i < n; i++) {
        float keep = buf[i], eps = 1e-2f;
        buf[i] = keep + eps;
        double lp = loss_of(&c, buf, w);
        buf[i] = keep - eps;
        double lm = loss_of(&c, buf, w);
        buf[i] = keep;
        double num = (lp - lm) / (2.0 * eps), err = fabs(num - grad[i]);
        double tol = 2e-3 + 2e-2 * fabs(num);
        if (err / tol > worst) worst = err / tol;
        cr_assert(err <= tol, "param %ld: numeric %.6f, backward %.6f", i, num,
                  grad[i]);
    }
    free(buf);
    free(grad);
    s2s_work_free(w);
}

Test(seq2seq, gradients_with_attention) { gradcheck(1); }
Test(seq2seq, gradients_without_attention) { gradcheck(0); }

// Beam search on a model with random weights: width 1 gives s2s_greedy's
// tokens; every width's score is the model's own log probability of the
// translation it returns (the teacher-forced loss of that translation: this
// fails if the decoder states are not reordered with their hypotheses); a
// width that keeps every hypothesis (9^3 of them, u_max 4) is never beaten by
// a narrower one.
static void beam_check(int attention) {
    s2s_config_t c = config(attention);
    c.b_max = B * 729;
    long n = s2s_param_count(&c);
    float *buf = malloc((size_t)n * sizeof *buf);
    rng_t rng;
    rng_seed(&rng, 8);
    s2s_init(buf, &c, &rng);
    s2s_work_t *w = s2s_work_new(&c);
    s2s_params_t p;
    s2s_bind(&p, buf, &c);
    p.b_out[S2S_PAD] = -30.0f;   // never written, as after training (the loss skips it)
    int greedy[B * U], out[B * U], tin[B * U];
    double score[B], widest[B];
    cr_assert_eq(s2s_greedy(&p, &c, SRC, MASK, B, T, greedy, NULL, w), 0);
    cr_assert_eq(s2s_beam(&p, &c, SRC, MASK, B, T, 729, out, widest, w), 0);
    for (int width = 1; width <= 9; width++) {
        cr_assert_eq(s2s_beam(&p, &c, SRC, MASK, B, T, width, out, score, w), 0);
        if (width == 1) cr_assert_arr_eq(out, greedy, sizeof out);
        for (int q = 0; q < B; q++) {
            for (int j = 0; j < U; j++)
                tin[q * U + j] = j ? out[q * U + j - 1] : S2S_BOS;
            cr_assert(score[q] <= widest[q] + 1e-9, "width %d, sentence %d", width, q);
        }
        s2s_batch_t bt = {B, T, U, SRC, MASK, tin, out};
        int count;
        double loss = s2s_forward(&p, &c, &bt, w, &count);
        cr_assert_float_eq(-loss, score[0] + score[1] + score[2], 1e-3, "width %d",
                           width);
    }
    cr_assert_eq(s2s_beam(&p, &c, SRC, MASK, B, T, 730, out, score, w), -1);
    s2s_work_free(w);
    free(buf);
}

Test(seq2seq, beam_with_attention) { beam_check(1); }
Test(seq2seq, beam_without_attention) { beam_check(0); }
