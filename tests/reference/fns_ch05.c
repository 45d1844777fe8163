// fns_ch05.c -- reference-driver wrappers for chapter 5 (see cases_ch05.py).
#include <stdlib.h>

#include "driver.h"
#include "variants/hard.h"
#include "variants/linear_attention.h"
#include "variants/online.h"
#include "variants/relative.h"
#include "variants/sparse.h"

// ints n, m, k_max -> idx (n, m) as floats
FN(relpos_index) {
    int n = I(0), m = I(1);
    int *idx = scratch(c, ((size_t)n * m + 1) * sizeof(int));
    relpos_index(idx, n, m, I(2));
    for (long e = 0; e < (long)n * m; e++) OUT(0)[e] = (float)idx[e];
    return 0;
}
// ints n, m, d_k, d_v, k_max; q, k, v, emb_k, emb_v or -, mask -> out, weights
FN(relpos_forward) {
    relpos_t rel = {.emb_k = IN(3), .emb_v = IN(4), .k_max = I(4), .d_k = I(2),
                    .d_v = I(3)};
    relpos_forward(IN(0), IN(1), IN(2), &rel, MASK(5), OUT(0), OUT(1), I(0), I(1));
    return 0;
}
// ints n, d_k, d_v, window, stride, causal; q, k, v -> out
FN(sparse_forward) {
    sparse_pattern_t p;
    if (sparse_build(&p, I(0), I(3), I(4), I(5)) != 0) return -1;
    int rc = sparse_forward(IN(0), IN(1), IN(2), &p, OUT(0), I(1), I(2));
    sparse_free(&p);
    return rc;
}
// ints n, m, d_k, d_v; q, k, v, mask (or -: all visible) -> out
FN(sparse_forward_mask) {
    int n = I(0), m = I(1);
    unsigned char *mask = MASK(3);
    if (!mask) {
        mask = scratch(c, (size_t)n * m + 1);
        for (long e = 0; e < (long)n * m; e++) mask[e] = 1;
    }
    sparse_pattern_t p;
    if (sparse_from_mask(&p, mask, n, m) != 0) return -1;
    int rc = sparse_forward(IN(0), IN(1), IN(2), &p, OUT(0), I(2), I(3));
    sparse_free(&p);
    return rc;
}
FN(linattn_feature) {
    linattn_feature(IN(0), OUT(0), I(0));
    return 0;
}
FN(linattn_forward_quadratic) {
    return linattn_forward_quadratic(IN(0), IN(1), IN(2), MASK(3), OUT(0), OUT(1), I(0),
                                     I(1), I(2), I(3));
}
FN(linattn_forward) {
    return linattn_forward(IN(0), IN(1), IN(2), OUT(0), I(0), I(1), I(2), I(3));
}
FN(linattn_causal) {
    return linattn_causal(IN(0), IN(1), IN(2), OUT(0), I(0), I(1), I(2));
}
FN(online_softmax) {
    online_softmax(copy_in(c, 0, 0), I(0));
    return 0;
}
// ints n, m, d_k, d_v, block; q, k, v, mask -> out
FN(online_attention) {
    return online_attention(IN(0), IN(1), IN(2), MASK(3), OUT(0), I(0), I(1), I(2),
                            I(3), I(4));
}
// ints n, m, d_k, d_v; q, k, v, mask -> out, idx as floats
FN(hard_forward) {
    int n = I(0);
    int *idx = scratch(c, ((size_t)n + 1) * sizeof(int));
    hard_forward(IN(0), IN(1), IN(2), MASK(3), OUT(0), idx, n, I(1), I(2), I(3));
    for (int i = 0; i < n; i++) OUT(1)[i] = (float)idx[i];
    return 0;
}

const ref_entry REF_fns_ch05[] = {
    ENTRY(relpos_index),    ENTRY(relpos_forward),
    ENTRY(sparse_forward),  ENTRY(sparse_forward_mask),
    ENTRY(linattn_feature), ENTRY(linattn_forward_quadratic),
    ENTRY(linattn_forward), ENTRY(linattn_causal),
    ENTRY(online_softmax),  ENTRY(online_attention),
    ENTRY(hard_forward),    {0},
};
