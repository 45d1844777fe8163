// test_online_merge.c -- merging two online-softmax states (a graded task).
//
// Keys are cut into chunks at random, each chunk is folded into its own state
// with online_update, and the states are merged in a random order; the result
// must be the attention row computed directly, in double, in one pass.
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/rng.h"
#include "variants/online_merge.h"

// The grading seed (GRADER_SEED; a fixed one when unset).
static inline uint64_t grading_seed(void) {
    const char *env = getenv("GRADER_SEED");
    return env ? strtoull(env, NULL, 10) : 2024u;
}

enum { NMAX = 80, DMAX = 5, CMAX = 12 };

// Two keys each side: scores (0, 1) and (3, -inf), values 1, 2 and 4, 8 (d_v = 1).
Test(online_merge, two_states_by_hand) {
    double acc_a[1], acc_b[1];
    online_state_t a, b;
    online_init(&a, acc_a, 1);
    online_init(&b, acc_b, 1);
    const float sa[2] = {0, 1}, va[2] = {1, 2}, sb[2] = {3, -INFINITY}, vb[2] = {4, 8};
    online_update(&a, sa, va, 2);
    online_update(&b, sb, vb, 2);
    online_merge(&a, &b);
    cr_assert_eq(a.max, 3.0f);
    double l = exp(-3.0) + exp(-2.0) + 1;
    cr_assert_float_eq(a.sum, l, 1e-6);
    cr_assert_float_eq(a.acc[0], exp(-3.0) + 2 * exp(-2.0) + 4, 1e-6);
    cr_assert_eq(b.max, 3.0f, "b is not changed");
    cr_assert_float_eq(b.sum, 1.0, 1e-12);
}

// An empty state merged in changes nothing; merged into, it becomes a copy.
Test(online_merge, empty_states) {
    double acc_a[2], acc_b[2], acc_e[2];
    online_state_t a, b, e;
    online_init(&a, acc_a, 2);
    online_init(&b, acc_b, 2);
    online_init(&e, acc_e, 2);
    const float s[2] = {5, 4}, v[4] = {1, 2, 3, 4};
    online_update(&b, s, v, 2);
    online_merge(&a, &b);   // into an empty state
    cr_assert_eq(a.max, 5.0f);
    cr_assert_float_eq(a.sum, 1 + exp(-1.0), 1e-6);
    cr_assert_float_eq(a.acc[1], 2 + 4 * exp(-1.0), 1e-6);
    online_merge(&a, &e);   // an empty one in
    cr_assert_eq(a.max, 5.0f);
    cr_assert_float_eq(a.sum, 1 + exp(-1.0), 1e-6);
    cr_assert(!isnan(a.acc[0]) && fabs(a.acc[0] - (1 + 3 * exp(-1.0))) < 1e-6);
    double acc_f[2];
    online_state_t f;
    online_init(&f, acc_f, 2);
    online_merge(&f, &e);   // two empty states: still empty, never NaN
    cr_assert(f.max == -INFINITY && f.sum == 0.0 && f.acc[0] == 0.0);
    online_merge(&f, &b);
    cr_assert_eq(f.max, 5.0f);
    cr_assert_float_eq(f.sum, 1 + exp(-1.0), 1e-6);
}

// Random rows from the grading seed: scores spread over hundreds (a naive sum
// overflows), hidden keys, chunks that are empty or all hidden, one key, 64 and
// more keys; the states are merged in a random order.
Test(online_merge, random_splits_equal_attention_from_the_grading_seed) {
    rng_t rng;
    rng_seed(&rng, grading_seed());
    static const int sizes[] = {1, 2, 7, 13, 64, 77};
    for (int c = 0; c < 12; c++) {
        int m = sizes[c % 6], dv = 1 + (int)(rng_uniform(&rng) * DMAX);
        float s[NMAX], v[NMAX * DMAX], out[DMAX];
        for (int j = 0; j < m; j++) {
            s[j] = (c < 6 ? 3.0f : 150.0f) * rng_normal(&rng);
            if (rng_uniform(&rng) < 0.2) s[j] = -INFINITY;
        }
        if (c % 3 == 0) s[0] = 1.0f;   // at least one visible key
        for (int i = 0; i < m * dv; i++) v[i] = rng_normal(&rng);
        int cuts = 1 + (int)(rng_uniform(&rng) * (CMAX - 1)), at[CMAX + 1];
        at[0] = 0, at[cuts] = m;
        for (int t = 1; t < cuts; t++) at[t] = (int)(rng_uniform(&rng) * (m + 1));
        for (int t = 1; t < cuts; t++)   // sort the cut points (empty chunks allowed)
            for (int u = t; u > 1 && at[u - 1] > at[u]; u--) {
                int x = at[u]; at[u] = at[u - 1]; at[u - 1] = x;
            }
        online_state_t st[CMAX];
        double acc[CMAX][DMAX];
        for (int t = 0; t < cuts; t++) {
            online_init(&st[t], acc[t], dv);
            online_update(&st[t], s + at[t], v + at[t] * dv, at[t + 1] - at[t]);
        }
        for (int left = cuts; left > 1; left--) {   // merge a random pair
            int a = (int)(rng_uniform(&rng) * left), b = (a + 1) % left;
            online_merge(&st[a], &st[b]);
            st[b] = st[left - 1];
        }
        online_finish(&st[0], out);
        double max = -INFINITY, sum = 0, want[DMAX] = {0};
        for (int j = 0; j < m; j++) max = fmax(max, s[j]);
        for (int j = 0; j < m; j++)
            if (s[j] > -INFINITY) {
                double p = exp(s[j] - max);
                sum += p;
                for (int d = 0; d < dv; d++) want[d] += p * v[j * dv + d];
            }
        for (int d = 0; d < dv; d++) {
            double w = sum > 0 ? want[d] / sum : 0.0;
            cr_assert(fabs(out[d] - w) <= 1e-5 * (1 + fabs(w)),
                      "m %d, %d chunks: out[%d] = %g, want %g", m, cuts, d,
                      (double)out[d], w);
        }
    }
}
