// test_tmat.c -- the blocked products equal the textbook triple loops.
#include <criterion/criterion.h>
#include <stdlib.h>

#include "base/rng.h"
#include "base/tmat.h"

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
