// fns_ch07.c -- reference-driver wrappers for chapter 7 (code/lib/position/).
// The matching Python entries are in cases_ch07.py, in the same order.
#include "driver.h"

#include <stdlib.h>

#include "position/alibi.h"
#include "position/learned.h"
#include "position/rope.h"
#include "position/sinusoidal.h"

FN(sinusoidal_table) {   // ints n, d, pos0; reals base -> pe (n, d)
    return sinusoidal_table(OUT(0), I(0), I(1), I(2), R(0));
}
FN(sinusoidal_offset_matrix) {   // ints d, k; reals base -> m (d, d)
    return sinusoidal_offset_matrix(OUT(0), I(0), I(1), R(0));
}
FN(learned_pe_lookup) {   // ints n, d, max_len; table, pos (as floats) -> out
    learned_pe_t p = {.max_len = I(2), .d = I(1), .table = IN(0)};
    int *pos = scratch(c, sizeof(int) * (size_t)(I(0) > 0 ? I(0) : 1));
    for (int r = 0; r < I(0); r++) pos[r] = (int)IN(1)[r];
    return learned_pe_lookup(&p, pos, I(0), OUT(0));
}
FN(rope_theta) { return rope_theta(OUT(0), I(0), R(0)); }   // ints d; reals base
FN(rope_apply) {   // ints n, d, pos0; reals base; x -> x turned
    return rope_apply(copy_in(c, 0, 0), I(0), I(1), I(2), R(0));
}
FN(rope_apply_scaled) {   // ints n, d, pos0; reals base, scale; x -> x turned
    return rope_apply_scaled(copy_in(c, 0, 0), I(0), I(1), I(2), R(1), R(0));
}
FN(rope_matrix) { return rope_matrix(OUT(0), I(0), I(1), R(0)); }   // ints d, pos
FN(rope_decay_bound) {   // ints d, dist; reals base -> (1,)
    OUT(0)[0] = (float)rope_decay_bound(I(0), I(1), R(0));
    return 0;
}
FN(alibi_slopes) { return alibi_slopes(OUT(0), I(0)); }   // ints heads
FN(alibi_bias) { alibi_bias(OUT(0), I(0), (float)R(0)); return 0; }   // ints n; slope
FN(alibi_attention) {   // ints n, d_k, d_v; reals slope; q, k, v -> out, weights
    return alibi_attention(IN(0), IN(1), IN(2), (float)R(0), OUT(0), OUT(1), I(0), I(1),
                           I(2));
}

const ref_entry REF_fns_ch07[] = {
    ENTRY(sinusoidal_table), ENTRY(sinusoidal_offset_matrix), ENTRY(learned_pe_lookup),
    ENTRY(rope_theta), ENTRY(rope_apply), ENTRY(rope_apply_scaled),
    ENTRY(rope_matrix), ENTRY(rope_decay_bound),
    ENTRY(alibi_slopes), ENTRY(alibi_bias), ENTRY(alibi_attention), {0},
};
