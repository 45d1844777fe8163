// fns_ch06.c -- reference wrappers for chapter 6: masks/mask.h, masks/kv_cache.h.
// Masks travel as 0/1 floats; byte results go out through bytes_for/put_bytes.
#include <math.h>

#include "driver.h"
#include "masks/kv_cache.h"
#include "masks/mask.h"

FN(mask_causal) {
    unsigned char *m = bytes_for(c, 0);
    mask_causal(m, I(0));
    put_bytes(c, 0, m);
    return 0;
}
FN(mask_band) {
    unsigned char *m = bytes_for(c, 0);
    mask_band(m, I(0), I(1));
    put_bytes(c, 0, m);
    return 0;
}
FN(mask_padding) {
    int n = I(0);
    int *ids = scratch(c, (size_t)(n ? n : 1) * sizeof(int));
    for (int j = 0; j < n; j++) ids[j] = (int)IN(0)[j];
    unsigned char *m = bytes_for(c, 0);
    mask_padding(ids, n, m);
    put_bytes(c, 0, m);
    return 0;
}
FN(mask_to_additive) {
    mask_to_additive(MASK(0), OUT(0), (size_t)I(0), (float)R(0));
    return 0;
}
FN(mask_multiply_rows) {
    int n = I(0), m = I(1);
    float *w = copy_in(c, 0, 0);
    const unsigned char *mask = MASK(1);
    if (!mask) {                                   // None: every entry visible
        unsigned char *all = scratch(c, (size_t)n * m + 1);
        mask_full(all, n, m);
        mask = all;
    }
    mask_multiply_rows(w, mask, n, m, I(2));
    return 0;
}
FN(mask_round_half) {
    float *y = OUT(0);
    for (int k = 0; k < I(0); k++) {
        y[k] = mask_round_half(IN(0)[k]);
        if (isinf(y[k])) y[k] = y[k] > 0 ? 1e30f : -1e30f;   // as the reference
    }
    return 0;
}
FN(mask_stats) {
    mask_stats_t s = mask_stats(MASK(0), I(0), I(1));
    float *o = OUT(0);
    o[0] = (float)s.density, o[1] = (float)s.mean_visible, o[2] = (float)s.max_visible;
    o[3] = (float)s.min_visible, o[4] = (float)s.empty_rows, o[5] = (float)s.farthest;
    return 0;
}
FN(mask_reach) {
    unsigned char *r = bytes_for(c, 0);
    int rc = mask_reach(MASK(0), I(0), I(1), r);
    put_bytes(c, 0, r);
    return rc;
}
FN(mask_flow) {
    mask_flow_t f = mask_flow(IN(0), I(0), I(1), R(0));
    OUT(0)[0] = (float)f.mean_distance, OUT(0)[1] = (float)f.entropy;
    OUT(0)[2] = (float)f.farthest;
    return 0;
}
FN(mask_mha_batch) {
    mha_params_t p = mha_from(c, 1, I(2), I(3));
    return mask_mha_batch(&p, IN(0), I(0), I(1), MASK(6), MASK(7), OUT(0), OUT(1));
}
// n tokens decoded one by one through the cache: out (n, d) row t from step t.
FN(kv_step) {
    int n = I(0), d = I(1), h = I(2);
    mha_params_t p = mha_from(c, 1, d, h);
    kv_cache_t cache;
    if (kv_alloc(&cache, d, h, n) != 0) return -1;
    int rc = 0;
    for (int t = 0; t < n && rc == 0; t++)
        rc = kv_step(&p, &cache, IN(0) + (size_t)t * d, OUT(0) + (size_t)t * d, NULL);
    kv_free(&cache);
    return rc;
}

const ref_entry REF_fns_ch06[] = {
    ENTRY(mask_causal), ENTRY(mask_band), ENTRY(mask_padding), ENTRY(mask_to_additive),
    ENTRY(mask_multiply_rows), ENTRY(mask_round_half), ENTRY(mask_stats),
    ENTRY(mask_reach), ENTRY(mask_flow), ENTRY(mask_mha_batch), ENTRY(kv_step), {0},
};
