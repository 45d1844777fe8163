// test_tmat.c -- the blocked products equal the textbook triple loops; the two
// products that run on AVX2 where the processor has it give the bytes of the
// scalar loop in the documented order, on that path and on the portable one.
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/tmat.h"

// The portable copy of the products, as a processor without AVX2 runs them:
// tmat.c once more, without its AVX2 path, under other names.
#define TMAT_PORTABLE
#define tmat_mul_acc portable_mul_acc
#define tmat_mul_bt_acc portable_mul_bt_acc
#define tmat_at_mul_acc portable_at_mul_acc
#define tmat_set_rows portable_set_rows
#define tmat_sum_rows_acc portable_sum_rows_acc
#include "../../code/lib/base/tmat.c"
#undef tmat_mul_acc
#undef tmat_mul_bt_acc
#undef tmat_at_mul_acc
#undef tmat_set_rows
#undef tmat_sum_rows_acc

static void sizes_check(int n, int k, int m) {
    float *x = malloc(sizeof(float) * n * k), *w = malloc(sizeof(float) * k * m);
    float *y = malloc(sizeof(float) * n * m), *dx = calloc(n * k, sizeof(float));
    float *dw = calloc(k * m, sizeof(float));
    rng_t rng;
    rng_seed(&rng, (uint64_t)(n * 1000 + k * 10 + m));
    rng_fill_normal(&rng, x, n * k, 0, 1);
    rng_fill_normal(&rng, w, k * m, 0, 1);
    rng_fill_normal(&rng, y, n * m, 0, 1);
    float *y0 = malloc(sizeof(float) * n * m);
    for (int i = 0; i < n * m; i++) y0[i] = y[i];
    tmat_mul_acc(x, w, y, n, k, m);
    tmat_mul_bt_acc(y0, w, dx, n, k, m);
    tmat_at_mul_acc(x, y0, dw, n, k, m);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = y0[i * m + j];
            for (int p = 0; p < k; p++) s += (double)x[i * k + p] * w[p * m + j];
            cr_assert_float_eq(y[i * m + j], s, 1e-4, "y %d %d", i, j);
        }
    for (int i = 0; i < n; i++)
        for (int p = 0; p < k; p++) {
            double s = 0;
            for (int j = 0; j < m; j++) s += (double)y0[i * m + j] * w[p * m + j];
            cr_assert_float_eq(dx[i * k + p], s, 1e-4);
        }
    for (int p = 0; p < k; p++)
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) s += (double)x[i * k + p] * y0[i * m + j];
            cr_assert_float_eq(dw[p * m + j], s, 1e-4);
        }
    free(x), free(w), free(y), free(y0), free(dx), free(dw);
}

Test(tmat, products_equal_triple_loops) {
    const int shapes[][3] = {{1, 1, 1}, {2, 3, 16}, {3, 5, 17}, {5, 7, 40}, {4, 1, 33}};
    for (int s = 0; s < 5; s++) sizes_check(shapes[s][0], shapes[s][1], shapes[s][2]);
}

Test(tmat, empty_sizes_do_nothing) {
    float y[2] = {1, 2};
    tmat_mul_acc(NULL, NULL, y, 0, 3, 2);
    tmat_mul_acc(NULL, NULL, y, 1, 0, 2);
    cr_assert(y[0] == 1 && y[1] == 2);
}

typedef void product_fn(const float *, const float *, float *, int, int, int);

// f(a, b, out, n, k, m) on a copy of init (rows, cols) -> the copy.
static float *run_product(product_fn *f, const float *a, const float *b,
                          const float *init, int rows, int cols, int n, int k, int m) {
    float *out = malloc(sizeof(float) * (size_t)(rows * cols + 1));
    memcpy(out, init, sizeof(float) * (size_t)(rows * cols));
    f(a, b, out, n, k, m);
    return out;
}

// Every output of tmat_mul_acc and tmat_at_mul_acc, on this machine's path and
// on the portable one, has the bytes of one float sum in the order tmat.h gives
// (from the output's old value, one term at a time), and every output of
// tmat_mul_bt_acc the bytes of tmat.c's four partial sums (lane j mod 4, the
// last m % 4 terms in lane 0, added as (s0 + s1) + (s2 + s3), then to the old
// value), at sizes that exercise every block and every remainder (rows mod 4,
// columns mod 16 and mod 4, panels of 16 rows of w and the rows after them).
Test(tmat, sums_in_the_documented_order_on_both_paths) {
    const int sizes[] = {1, 3, 4, 5, 8, 15, 16, 17, 20, 23, 33, 64};
    for (int a = 0; a < 12; a++)
        for (int b = 0; b < 12; b += 2)
            for (int c = 0; c < 12; c++) {
                int n = sizes[a], k = sizes[b] + a % 3, m = sizes[c];
                rng_t rng;
                rng_seed(&rng, (uint64_t)(n * 10007 + k * 101 + m));
                float *x = malloc(sizeof(float) * n * k);
                float *w = malloc(sizeof(float) * k * m);
                float *y = malloc(sizeof(float) * n * m);
                float *dw = malloc(sizeof(float) * k * m);
                float *dx = malloc(sizeof(float) * n * k);
                rng_fill_normal(&rng, x, n * k, 0, 1);
                rng_fill_normal(&rng, w, k * m, 0, 1);
                rng_fill_normal(&rng, y, n * m, 0, 1);
                rng_fill_normal(&rng, dw, k * m, 0, 1);
                rng_fill_normal(&rng, dx, n * k, 0, 1);
                float *want_y = malloc(sizeof(float) * n * m);
                float *want_dw = malloc(sizeof(float) * k * m);
                float *want_dx = malloc(sizeof(float) * n * k);
                for (int i = 0; i < n; i++)          // the documented order, in scalars
                    for (int j = 0; j < m; j++) {
                        float s = y[i * m + j];
                        for (int p = 0; p < k; p++) s += x[i * k + p] * w[p * m + j];
                        want_y[i * m + j] = s;
                    }
                for (int p = 0; p < k; p++)
                    for (int j = 0; j < m; j++) {
                        float s = dw[p * m + j];
                        for (int i = 0; i < n; i++) s += x[i * k + p] * y[i * m + j];
                        want_dw[p * m + j] = s;
                    }
                for (int i = 0; i < n; i++)
                    for (int p = 0; p < k; p++) {
                        float s4[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                        int j = 0;
                        for (; j < m / 4 * 4; j++)
                            s4[j % 4] += y[i * m + j] * w[p * m + j];
                        for (; j < m; j++) s4[0] += y[i * m + j] * w[p * m + j];
                        float sum = (s4[0] + s4[1]) + (s4[2] + s4[3]);
                        want_dx[i * k + p] = dx[i * k + p] + sum;
                    }
                product_fn *mul[2] = {tmat_mul_acc, portable_mul_acc};
                product_fn *bt[2] = {tmat_mul_bt_acc, portable_mul_bt_acc};
                product_fn *at[2] = {tmat_at_mul_acc, portable_at_mul_acc};
                for (int path = 0; path < 2; path++) {
                    float *got_y = run_product(mul[path], x, w, y, n, m, n, k, m);
                    float *got_dw = run_product(at[path], x, y, dw, k, m, n, k, m);
                    float *got_dx = run_product(bt[path], y, w, dx, n, k, n, k, m);
                    const char *which = path ? "portable" : "this machine's";
                    cr_assert(!memcmp(got_y, want_y, sizeof(float) * n * m),
                              "%s mul_acc %d %d %d", which, n, k, m);
                    cr_assert(!memcmp(got_dw, want_dw, sizeof(float) * k * m),
                              "%s at_mul_acc %d %d %d", which, n, k, m);
                    cr_assert(!memcmp(got_dx, want_dx, sizeof(float) * n * k),
                              "%s mul_bt_acc %d %d %d", which, n, k, m);
                    free(got_y), free(got_dw), free(got_dx);
                }
                free(x), free(w), free(y), free(dw), free(dx);
                free(want_y), free(want_dw), free(want_dx);
            }
}
