// test_topk.c -- top-k attention (a graded task).
//
// The reference sorts each row's scores (a stable insertion sort in double), keeps
// the first `top` and takes a softmax over them alone.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/rng.h"
#include "variants/topk.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 70, DMAX = 5 };

static void ref_topk(const float *q, const float *k, const float *v, double *out,
                     int n, int m, int dk, int dv, int top) {
    for (int i = 0; i < n; i++) {
        double s[NMAX];
        int order[NMAX];
        for (int j = 0; j < m; j++) {
            float dot = 0;   // the score in float, as the library rounds it
            double acc = 0;
            for (int c = 0; c < dk; c++) acc += (double)q[i * dk + c] * k[j * dk + c];
            dot = (float)(acc / sqrt((double)dk));
            s[j] = dot;
            int t = j;   // insert j after every score >= its own: ties keep index order
            while (t > 0 && s[order[t - 1]] < s[j]) {
                order[t] = order[t - 1];
                t--;
            }
            order[t] = j;
        }
        int kept = top < m ? top : m;
        double sum = 0;
        for (int c = 0; c < dv; c++) out[i * dv + c] = 0;
        for (int t = 0; t < kept; t++) sum += exp(s[order[t]] - s[order[0]]);
        for (int t = 0; t < kept; t++)
            for (int c = 0; c < dv; c++)
                out[i * dv + c] += exp(s[order[t]] - s[order[0]]) / sum *
                                   v[order[t] * dv + c];
    }
}

static void check(const float *q, const float *k, const float *v, int n, int m, int dk,
                  int dv, int top) {
    float out[NMAX * DMAX];
    double want[NMAX * DMAX];
    for (int i = 0; i < n * dv; i++) out[i] = NAN;
    cr_assert_eq(topk_forward(q, k, v, out, n, m, dk, dv, top), 0);
    ref_topk(q, k, v, want, n, m, dk, dv, top);
    for (int i = 0; i < n * dv; i++)
        cr_assert(fabs(out[i] - want[i]) <= 1e-5 * (1 + fabs(want[i])),
                  "n %d m %d d_k %d d_v %d top %d: out[%d][%d] = %g, want %g", n, m, dk,
                  dv, top, i / dv, i % dv, (double)out[i], want[i]);
}

// One query, d_k = 4 (scale 1/2), keys giving scores 2, 0, 1, 2: top 2 keeps keys 0
// and 3 (a tie: equal weights); top 3 adds key 2 (score 1 beats 0).
Test(topk, by_hand) {
    const float q[4] = {2, 2, 0, 0};
    const float k[16] = {1, 1, 0, 0, 0, 0, 1, 1, 0.5f, 0.5f, 0, 0, 2, 0, 0, 0};
    const float v[8] = {1, 0, 0, 1, 0, 2, 4, 4};
    float out[3] = {7, 7, 7};
    cr_assert_eq(topk_forward(q, k, v, out, 1, 4, 4, 2, 2), 0);
    cr_assert_float_eq(out[0], 2.5f, 1e-6);
    cr_assert_float_eq(out[1], 2.0f, 1e-6);
    cr_assert_eq(out[2], 7.0f);
    check(q, k, v, 1, 4, 4, 2, 1);   // the tie at the top: key 0 alone
    check(q, k, v, 1, 4, 4, 2, 3);
    check(q, k, v, 1, 4, 4, 2, 9);
    cr_assert_eq(topk_forward(q, k, v, out, 1, 4, 4, 2, 0), -1);
}

// Random shapes and k from the grading seed: top = 1, top >= m, one key, 64 keys,
// and integer-valued keys that make ties.
Test(topk, random_with_ties_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int shapes[][4] = {{1, 1, 1, 1}, {3, 5, 2, 3}, {4, 7, 3, 2},
                                    {2, 64, 4, 5}, {5, 9, 1, 1}, {3, 66, 2, 2}};
    static float q[NMAX * DMAX], k[NMAX * DMAX], v[NMAX * DMAX];
    for (int c = 0; c < 12; c++) {
        const int *s = shapes[c % 6];
        int n = s[0], m = s[1], dk = s[2], dv = s[3];
        for (int i = 0; i < n * dk; i++) q[i] = rng_normal(&rng);
        for (int i = 0; i < m * dk; i++)
            k[i] = c < 6 ? 2 * rng_normal(&rng) : (float)(int)(3 * rng_uniform(&rng));
        for (int i = 0; i < n * dk && c >= 6; i++) q[i] = 1.0f;
        for (int i = 0; i < m * dv; i++) v[i] = rng_normal(&rng);
        int top = c % 3 == 0   ? 1
                  : c % 3 == 1 ? m + 2
                               : 1 + (int)(rng_uniform(&rng) * m);
        check(q, k, v, n, m, dk, dv, top);
    }
}
