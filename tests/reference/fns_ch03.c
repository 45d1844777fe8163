// fns_ch03.c -- reference-driver wrappers for chapter 3's additions (see driver.h).
#include <stdlib.h>

#include "driver.h"
#include "layers/qk_train.h"

// ints n, d, k; in x (n, d), w_q (d, k), w_k (d, k), t (n,) as floats (-1 = skip)
static int *targets(call *c, int n) {
    int *t = scratch(c, (size_t)n * sizeof *t);
    for (int i = 0; i < n; i++) t[i] = (int)IN(3)[i];
    return t;
}

// out: the loss (1), then a (n, n)
FN(qk_forward) {
    int n = I(0), d = I(1), k = I(2);
    float *q = scratch(c, (size_t)n * k * sizeof(float));
    float *kk = scratch(c, (size_t)n * k * sizeof(float));
    OUT(0)[0] = (float)qk_forward(IN(0), IN(1), IN(2), targets(c, n), n, d, k, q, kk, OUT(1));
    return 0;
}

// out: dw_q (d, k), dw_k (d, k), accumulated onto inputs 4 and 5
FN(qk_backward) {
    int n = I(0), d = I(1), k = I(2);
    float *q = scratch(c, (size_t)n * k * sizeof(float));
    float *kk = scratch(c, (size_t)n * k * sizeof(float));
    float *a = scratch(c, (size_t)n * n * sizeof(float));
    float *work = scratch(c, ((size_t)n * n + 2 * (size_t)n * k) * sizeof(float));
    int *t = targets(c, n);
    qk_forward(IN(0), IN(1), IN(2), t, n, d, k, q, kk, a);
    qk_backward(IN(0), t, &(qk_saved_t){q, kk, a}, n, d, k, copy_in(c, 0, 4),
                copy_in(c, 1, 5), work);
    return 0;
}

const ref_entry REF_fns_ch03[] = {ENTRY(qk_forward), ENTRY(qk_backward), {0}};
