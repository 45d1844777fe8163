// test_beam.c -- beam search over a bigram table (a graded task).
//
// Against greedy decoding (beam 1) and brute force (a beam wide enough to keep
// every hypothesis), on tables drawn from the grading seed.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "data/beam.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

// Tokens: 0 = end, 1, 2; start = 2. From 2: end .1, 1 .5, 2 .4; from 1: end .3,
// 1 .35, 2 .35. Greedy takes 1 (.5), then 1 (.35, the lower id of a tie):
// .175. A beam of 2 also keeps 2 (.4) and finds 2 1 (.4 x .5 = .2).
static void table(float *logp) {
    const float p[9] = {1 / 3.0f, 1 / 3.0f, 1 / 3.0f, .3f, .35f, .35f, .1f, .5f, .4f};
    for (int i = 0; i < 9; i++) logp[i] = logf(p[i]);
}

Test(beam, wider_beam_beats_greedy_by_hand) {
    float logp[9];
    table(logp);
    int out[3] = {7, 7, 7};
    double score = 0;
    cr_assert_eq(beam_search(logp, 3, 2, 0, 2, 2, out, &score), 2);
    cr_assert_eq(out[0], 2);
    cr_assert_eq(out[1], 1);
    cr_assert_eq(out[2], 7);
    cr_assert_float_eq(score, log(0.2), 1e-6);
    cr_assert_eq(beam_search(logp, 3, 2, 0, 1, 2, out, &score), 2);   // greedy
    cr_assert_eq(out[0], 1);
    cr_assert_eq(out[1], 1);
    cr_assert_float_eq(score, log(0.175), 1e-6);
}

// With one step allowed the best single token wins, even the end token; a
// table where ending at once is best returns length 1.
Test(beam, one_step_and_ending_early) {
    float logp[9];
    table(logp);
    int out[4] = {7, 7, 7, 7};
    double score = 0;
    cr_assert_eq(beam_search(logp, 3, 2, 0, 3, 1, out, &score), 1);
    cr_assert_eq(out[0], 1);
    cr_assert_float_eq(score, log(0.5), 1e-6);
    logp[6] = logf(0.9f);                     // from 2: end .9
    cr_assert_eq(beam_search(logp, 3, 2, 0, 3, 4, out, &score), 1);
    cr_assert_eq(out[0], 0);
    cr_assert_eq(out[1], 7);
    cr_assert_float_eq(score, log(0.9), 1e-6);
    cr_assert_eq(beam_search(logp, 3, 3, 0, 3, 4, out, &score), -1);   // start >= V
    cr_assert_eq(beam_search(logp, 3, 2, 0, 0, 4, out, &score), -1);   // beam 0
}

// Score of the sequence seq (len,) after start, ended at its first end token;
// *used its length up to there.
static inline double seq_score(const float *logp, int v, int start, int end,
                               const int *seq, int len, int *used) {
    double s = 0.0;
    int last = start;
    for (int i = 0; i < len; i++) {
        s += logp[last * v + seq[i]];
        last = seq[i];
        if (seq[i] == end) {
            *used = i + 1;
            return s;
        }
    }
    *used = len;
    return s;
}

// Random row-stochastic tables (V 2..5, up to 4 steps): a beam of V^4 keeps
// everything and must find the best sequence by brute force; beam 1 must be
// greedy decoding.
Test(beam, exhaustive_and_greedy_on_random_tables) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    for (int c = 0; c < 25; c++) {
        int v = 2 + (int)(rng_uniform(&rng) * 4);
        int max_len = 1 + (int)(rng_uniform(&rng) * 4);
        int start = (int)(rng_uniform(&rng) * v), end = (int)(rng_uniform(&rng) * v);
        float logp[25];
        for (int a = 0; a < v; a++) {
            double z = 0, p[5];
            for (int b = 0; b < v; b++) z += p[b] = 0.05 + rng_uniform(&rng);
            for (int b = 0; b < v; b++) logp[a * v + b] = (float)log(p[b] / z);
        }
        double best = -INFINITY;
        int best_seq[4], best_len = 0, total = 1;
        for (int i = 0; i < max_len; i++) total *= v;
        for (int code = 0; code < total; code++) {
            int seq[4], used, x = code;
            for (int i = max_len - 1; i >= 0; i--) seq[i] = x % v, x /= v;
            double s = seq_score(logp, v, start, end, seq, max_len, &used);
            if (s > best + 1e-9) {
                best = s, best_len = used;
                memcpy(best_seq, seq, sizeof seq);
            }
        }
        int out[4];
        double score;
        int len = beam_search(logp, v, start, end, 625, max_len, out, &score);
        cr_assert_eq(len, best_len, "case %d (V %d, %d steps): length %d, want %d", c,
                     v, max_len, len, best_len);
        cr_assert_arr_eq(out, best_seq, sizeof(int) * best_len, "case %d", c);
        cr_assert_float_eq(score, best, 1e-5, "case %d", c);
        int greedy[4], g = 0, last = start;
        double gs = 0.0;
        while (g < max_len) {
            int top = 0;
            for (int b = 1; b < v; b++)
                top = logp[last * v + b] > logp[last * v + top] ? b : top;
            gs += logp[last * v + top];
            greedy[g++] = last = top;
            if (top == end) break;
        }
        cr_assert_eq(beam_search(logp, v, start, end, 1, max_len, out, &score), g,
                     "case %d: greedy length", c);
        cr_assert_arr_eq(out, greedy, sizeof(int) * g, "case %d: greedy", c);
        cr_assert_float_eq(score, gs, 1e-5, "case %d: greedy score", c);
    }
}

// A middle beam on longer searches: never better than the exhaustive search, and
// its score is the score of the sequence it returns. (It can be worse than
// greedy: a wider beam may push the greedy path out.)
Test(beam, middle_beam_is_consistent) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 1);
    for (int c = 0; c < 20; c++) {
        int v = 3 + (int)(rng_uniform(&rng) * 3), end = 0, max_len = 5;
        float logp[25];
        for (int a = 0; a < v; a++) {
            double z = 0, p[5];
            for (int b = 0; b < v; b++) z += p[b] = 0.05 + rng_uniform(&rng);
            for (int b = 0; b < v; b++) logp[a * v + b] = (float)log(p[b] / z);
        }
        int out[5], used;
        double s3, sall;
        int len = beam_search(logp, v, 1, end, 3, max_len, out, &s3);
        cr_assert(len >= 1 && len <= max_len, "case %d: length %d", c, len);
        cr_assert_float_eq(seq_score(logp, v, 1, end, out, len, &used), s3, 1e-5);
        cr_assert_eq(used, len, "case %d: tokens after the end token", c);
        beam_search(logp, v, 1, end, 3125, max_len, out, &sall);
        cr_assert(s3 <= sall + 1e-6, "case %d: beam 3 %g, exhaustive %g", c, s3, sall);
    }
}
