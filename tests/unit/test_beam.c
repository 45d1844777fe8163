// test_beam.c -- beam search over a bigram table, and the exact search by
// dynamic programming (beam_viterbi, a graded task).
//
// Against greedy decoding (beam 1) and brute force (a beam wide enough to keep
// every hypothesis, or every sequence enumerated), on tables drawn from the
// grading seed.
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

// ---------------------------------------------------------------------------
// beam_viterbi: the exact search

// The table above, start 2, end 0: of the sequences of up to 2 tokens, 2 1
// (.4 x .5 = .2) is the best, above 1 1 (.175) and 2 0 (.04); with one step
// the best single token is 1 (.5). With 3 steps an unfinished sequence must
// have 3 tokens (the best, 1 2 1: .0875), and the finished 1 0 (.5 x .3 = .15)
// beats them all: a sequence that stops early, which beams of 1 to 3 miss.
Test(beam, viterbi_by_hand) {
    float logp[9];
    table(logp);
    int out[3] = {7, 7, 7};
    double score = 0;
    cr_assert_eq(beam_viterbi(logp, 3, 2, 0, 2, out, &score), 2);
    cr_assert_eq(out[0], 2);
    cr_assert_eq(out[1], 1);
    cr_assert_eq(out[2], 7);
    cr_assert_float_eq(score, log(0.2), 1e-6);
    cr_assert_eq(beam_viterbi(logp, 3, 2, 0, 1, out, &score), 1);
    cr_assert_eq(out[0], 1);
    cr_assert_float_eq(score, log(0.5), 1e-6);
    out[2] = 7;
    cr_assert_eq(beam_viterbi(logp, 3, 2, 0, 3, out, &score), 2);
    cr_assert_eq(out[0], 1);
    cr_assert_eq(out[1], 0);
    cr_assert_eq(out[2], 7);
    cr_assert_float_eq(score, log(0.15), 1e-6);
}

// Ending early: from 2 the end token has .9, so the one-token sequence 0 wins
// however many steps are allowed, and nothing after it is written.
Test(beam, viterbi_ending_early) {
    float logp[9];
    table(logp);
    logp[6] = logf(0.9f);
    logp[7] = logf(0.05f);
    logp[8] = logf(0.05f);
    for (int steps = 1; steps <= 4; steps++) {
        int out[4] = {7, 7, 7, 7};
        double score = 0;
        cr_assert_eq(beam_viterbi(logp, 3, 2, 0, steps, out, &score), 1);
        cr_assert_eq(out[0], 0);
        for (int i = 1; i < 4; i++) cr_assert_eq(out[i], 7, "steps %d", steps);
        cr_assert_float_eq(score, log(0.9), 1e-6);
    }
    int out[2];
    double score;
    cr_assert_eq(beam_viterbi(logp, 3, 3, 0, 2, out, &score), -1);   // start >= V
    cr_assert_eq(beam_viterbi(logp, 3, 2, 0, 0, out, &score), -1);   // no step
}

// A random row-stochastic table of V tokens, from the grading seed.
static void random_table(rng_t *rng, int v, float *logp) {
    for (int a = 0; a < v; a++) {
        double z = 0, p[8];
        for (int b = 0; b < v; b++) z += p[b] = 0.05 + rng_uniform(rng);
        for (int b = 0; b < v; b++) logp[a * v + b] = (float)log(p[b] / z);
    }
}

// Random tables (V 1..5, up to 5 steps) against every sequence enumerated: the
// same best score, and a sequence that has that score, ends at its first end
// token (or runs the full length) and has nothing written after it.
Test(beam, viterbi_brute_force_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 2);
    for (int c = 0; c < 40; c++) {
        int v = 1 + (int)(rng_uniform(&rng) * 5);
        int max_len = 1 + (int)(rng_uniform(&rng) * 5);
        int start = (int)(rng_uniform(&rng) * v), end = (int)(rng_uniform(&rng) * v);
        float logp[25];
        random_table(&rng, v, logp);
        double best = -INFINITY;
        int total = 1;
        for (int i = 0; i < max_len; i++) total *= v;
        for (int code = 0; code < total; code++) {
            int seq[5], used, x = code;
            for (int i = max_len - 1; i >= 0; i--) seq[i] = x % v, x /= v;
            double s = seq_score(logp, v, start, end, seq, max_len, &used);
            best = s > best ? s : best;
        }
        int out[6] = {-1, -1, -1, -1, -1, -1}, used;
        double score = 1.0;
        int len = beam_viterbi(logp, v, start, end, max_len, out, &score);
        cr_assert(len >= 1 && len <= max_len, "case %d: length %d", c, len);
        cr_assert_float_eq(score, best, 1e-5, "case %d (V %d, %d steps)", c, v,
                           max_len);
        double own = seq_score(logp, v, start, end, out, len, &used);
        cr_assert_float_eq(own, score, 1e-5, "case %d: not the tokens' score", c);
        cr_assert_eq(used, len, "case %d: tokens after the end token", c);
        cr_assert(len == max_len || out[len - 1] == end, "case %d: cut short", c);
        cr_assert_eq(out[len], -1, "case %d: wrote past the length", c);
    }
}

// Longer searches (V up to 8, up to 8 steps, too many to enumerate): never
// below any beam, and equal to a beam that keeps every hypothesis it can need.
Test(beam, viterbi_beats_every_beam_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed() + 3);
    for (int c = 0; c < 20; c++) {
        int v = 3 + (int)(rng_uniform(&rng) * 6), max_len = 4 + c % 5;
        int start = (int)(rng_uniform(&rng) * v), end = 0;
        float logp[64];
        random_table(&rng, v, logp);
        int out[8];
        double exact, s;
        int len = beam_viterbi(logp, v, start, end, max_len, out, &exact);
        cr_assert(len >= 1 && len <= max_len, "case %d: length %d", c, len);
        for (int beam = 1; beam <= 4; beam++) {
            beam_search(logp, v, start, end, beam, max_len, out, &s);
            cr_assert(s <= exact + 1e-6, "case %d: beam %d %g above %g", c, beam, s,
                      exact);
        }
        if (max_len <= 5) {
            int wide = 1;
            for (int i = 1; i < max_len; i++) wide *= v;
            beam_search(logp, v, start, end, wide, max_len, out, &s);
            cr_assert_float_eq(s, exact, 1e-5, "case %d: exhaustive beam", c);
        }
    }
}
