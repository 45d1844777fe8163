// test_sparse.c -- sparse patterns and the kernel that skips hidden entries.
#include <criterion/criterion.h>
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
