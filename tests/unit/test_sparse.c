// test_sparse.c -- sparse patterns and the kernel that skips hidden entries.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "attention/attention.h"
#include "base/mat.h"
#include "base/rng.h"
#include "variants/sparse.h"

static void fill(float *x, int count, uint64_t seed) {
    rng_t rng;
    rng_seed(&rng, seed);
    rng_fill_normal(&rng, x, count, 0.0f, 1.0f);
}

// By hand, n = 6, window 1, stride 3: row 0 sees 0, 1 (band) and 3 (stripe).
Test(sparse, pattern_by_hand) {
    sparse_pattern_t p;
    cr_assert_eq(sparse_build(&p, 6, 1, 3, 0), 0);
    int want0[] = {0, 1, 3}, want5[] = {2, 4, 5};
    cr_assert_eq(p.start[1] - p.start[0], 3);
    for (int e = 0; e < 3; e++) cr_assert_eq(p.cols[p.start[0] + e], want0[e]);
    cr_assert_eq(p.start[6] - p.start[5], 3);
    for (int e = 0; e < 3; e++) cr_assert_eq(p.cols[p.start[5] + e], want5[e]);
    sparse_free(&p);
}

// sparse_build gives exactly the entries sparse_visible says, in order, for
// many (n, window, stride, causal).
Test(sparse, build_matches_visible) {
    for (int n = 0; n <= 23; n += 1)
        for (int w = -1; w <= 5; w++)
            for (int s = 0; s <= 7; s++)
                for (int causal = 0; causal < 2; causal++) {
                    sparse_pattern_t p;
                    cr_assert_eq(sparse_build(&p, n, w, s, causal), 0);
                    long nnz = 0;
                    for (int i = 0; i < n; i++) {
                        int e = p.start[i];
                        for (int j = 0; j < n; j++)
                            if (sparse_visible(i, j, w, s, causal)) {
                                cr_assert_lt(e, p.start[i + 1]);
                                cr_assert_eq(p.cols[e], j, "n %d w %d s %d", n, w, s);
                                e++, nnz++;
                            }
                        cr_assert_eq(e, p.start[i + 1]);
                    }
                    cr_assert_eq(p.nnz, nnz);
                    sparse_free(&p);
                }
}

// mask -> pattern -> mask is the identity.
Test(sparse, mask_round_trip) {
    enum { N = 9, M = 14 };
    unsigned char mask[N * M], back[N * M];
    rng_t rng;
    rng_seed(&rng, 1);
    for (int e = 0; e < N * M; e++) mask[e] = rng_uniform(&rng) < 0.3f;
    sparse_pattern_t p;
    cr_assert_eq(sparse_from_mask(&p, mask, N, M), 0);
    sparse_to_mask(&p, back);
    for (int e = 0; e < N * M; e++) cr_assert_eq(mask[e], back[e]);
    sparse_free(&p);
}

// The kernel equals masked dense attention for a random mask (with an empty
// row), and the full pattern equals standard attention.
Test(sparse, kernel_equals_masked_dense_and_full_equals_standard) {
    enum { N = 12, M = 12, DK = 7, DV = 3 };
    float q[N * DK], k[M * DK], v[M * DV], o1[N * DV], o2[N * DV], w[N * M];
    fill(q, N * DK, 2), fill(k, M * DK, 3), fill(v, M * DV, 4);
    unsigned char mask[N * M];
    rng_t rng;
    rng_seed(&rng, 5);
    for (int e = 0; e < N * M; e++) mask[e] = rng_uniform(&rng) < 0.35f;
    for (int j = 0; j < M; j++) mask[4 * M + j] = 0;
    sparse_pattern_t p;
    cr_assert_eq(sparse_from_mask(&p, mask, N, M), 0);
    attention_forward(q, k, v, mask, o1, w, N, M, DK, DV);
    cr_assert_eq(sparse_forward(q, k, v, &p, o2, DK, DV), 0);
    cr_assert_leq(mat_max_abs_diff(o1, o2, N * DV), 1e-5);
    for (int c = 0; c < DV; c++) cr_assert_eq(o2[4 * DV + c], 0.0f);
    sparse_free(&p);

    cr_assert_eq(sparse_build(&p, N, N, 0, 0), 0);   // window n: everything
    cr_assert_eq(p.nnz, (long)N * N);
    attention_forward(q, k, v, NULL, o1, w, N, M, DK, DV);
    cr_assert_eq(sparse_forward(q, k, v, &p, o2, DK, DV), 0);
    cr_assert_leq(mat_max_abs_diff(o1, o2, N * DV), 1e-5);
    sparse_free(&p);
}

// Bytes: (n + 1 + nnz) ints for the pattern; one row of scores to run.
Test(sparse, byte_counts) {
    sparse_pattern_t p;
    cr_assert_eq(sparse_build(&p, 10, 0, 0, 0), 0);   // the diagonal only
    cr_assert_eq(p.nnz, 10);
    cr_assert_eq(p.max_row, 1);
    cr_assert_eq(sparse_pattern_bytes(&p), 21 * sizeof(int));
    cr_assert_eq(sparse_work_bytes(&p), sizeof(float));
    sparse_free(&p);
    cr_assert_eq(sparse_build(&p, -1, 0, 0, 0), -1);
}

// Two-step reach by the boolean product: (I or P)(I or P) has no zero entry
// (every pattern here holds its diagonal, so I or P is P).
static int reach_by_product(const unsigned char *m, int n) {
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            int hit = m[i * n + k];
            for (int j = 0; j < n && !hit; j++) hit = m[i * n + j] && m[j * n + k];
            if (!hit) return 0;
        }
    return 1;
}

// Window 1 on 5 tokens reaches |i - k| <= 2 in two steps: 0 -> 4 fails;
// window 2 reaches everything. Window = stride = round(sqrt n) always reaches
// (Child et al.); window 2, stride 8 leaves residues 3..5 unreached.
Test(sparse, two_step_reach_by_hand) {
    sparse_pattern_t p;
    cr_assert_eq(sparse_build(&p, 5, 1, 0, 0), 0);
    cr_assert_eq(sparse_two_step_reach(&p), 0);
    sparse_free(&p);
    cr_assert_eq(sparse_build(&p, 5, 2, 0, 0), 0);
    cr_assert_eq(sparse_two_step_reach(&p), 1);
    sparse_free(&p);
    const int ns[6] = {16, 63, 64, 65, 200, 1000};
    for (int t = 0; t < 6; t++) {
        int s = (int)lround(sqrt((double)ns[t]));
        cr_assert_eq(sparse_build(&p, ns[t], s, s, 0), 0);
        cr_assert_eq(sparse_two_step_reach(&p), 1, "n %d", ns[t]);
        sparse_free(&p);
    }
    cr_assert_eq(sparse_build(&p, 64, 2, 8, 0), 0);
    cr_assert_eq(sparse_two_step_reach(&p), 0);
    sparse_free(&p);
    cr_assert_eq(sparse_build(&p, 0, 2, 8, 0), 0);
    cr_assert_eq(sparse_two_step_reach(&p), 1);              // nothing to reach
    sparse_free(&p);
    unsigned char rect[6] = {1, 1, 1, 1, 1, 1};
    cr_assert_eq(sparse_from_mask(&p, rect, 2, 3), 0);
    cr_assert_eq(sparse_two_step_reach(&p), -1);             // not square
    sparse_free(&p);
}

// Against the boolean product on random patterns, sizes around a word (64).
Test(sparse, two_step_reach_equals_product) {
    rng_t rng;
    rng_seed(&rng, 11);
    const int ns[7] = {1, 2, 7, 63, 64, 65, 130};
    for (int t = 0; t < 7; t++) {
        int n = ns[t];
        unsigned char *m = malloc((size_t)n * n);
        for (int trial = 0; trial < 20; trial++) {
            double keep = 0.02 + 0.1 * trial / 20.0;
            for (int i = 0; i < n; i++)
                for (int k = 0; k < n; k++)
                    m[i * n + k] = i == k || rng_uniform(&rng) < keep;
            sparse_pattern_t p;
            cr_assert_eq(sparse_from_mask(&p, m, n, n), 0);
            cr_assert_eq(sparse_two_step_reach(&p), reach_by_product(m, n),
                         "n %d trial %d", n, trial);
            sparse_free(&p);
        }
        free(m);
    }
}
