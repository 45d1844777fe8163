// fns_fast.c -- reference-driver wrappers for the fast kernels (see cases_fast.py).
#include "driver.h"
#include "fast/flash_backward.h"
#include "fast/tiled.h"

// ints h, n, m, d_k, d_v, causal; q, k, v -> out, lse
FN(tiled_attention) {
    return tiled_attention(IN(0), IN(1), IN(2), OUT(0), OUT(1), I(0), I(1), I(2), I(3),
                           I(4), I(5));
}
// ints h, n, m, d_k, d_v, causal; q, k, v, dout -> dq, dk, dv (the forward's out and
// lse from tiled_attention first, in scratch)
FN(flash_attention_backward) {
    int h = I(0), n = I(1);
    float *out = scratch(c, sizeof(float) * ((size_t)h * n * I(4) + (size_t)h * n + 1));
    float *lse = out + (size_t)h * n * I(4);
    if (tiled_attention(IN(0), IN(1), IN(2), out, lse, h, n, I(2), I(3), I(4), I(5)))
        return -1;
    return flash_attention_backward(IN(0), IN(1), IN(2), out, IN(3), lse, OUT(0),
                                    OUT(1), OUT(2), h, n, I(2), I(3), I(4), I(5));
}

const ref_entry REF_fns_fast[] = {
    ENTRY(tiled_attention),
    ENTRY(flash_attention_backward),
    {0},
};
