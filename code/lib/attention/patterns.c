// patterns.c -- measuring and naming attention patterns.
#include "attention/patterns.h"

#include <math.h>

#include "attention/attn_stats.h"

// snippet: pattern_measure
void pattern_measure(const float *w, int n, pattern_stats_t *s) {
    *s = (pattern_stats_t){0};
    if (n < 1) return;                                  // nothing to measure
    s->locality = attn_locality(w, n, n, PATTERN_RADIUS);
    s->diag = attn_diag_strength(w, n);
    s->sparsity = attn_sparsity(w, n, n, (float)(PATTERN_SMALL / n));
    s->entropy = attn_mean_entropy(w, n, n);
    s->entropy_ratio = n > 1 ? s->entropy / log((double)n) : 0.0;
    s->max_weight = attn_max_weight(w, n, n);
}
// end snippet

// snippet: pattern_classify
pattern_kind_t pattern_classify(const pattern_stats_t *s) {
    pattern_kind_t kind = PATTERN_NONE;
    // Even spread first: in a short sequence even uniform rows put much of
    // their weight near the diagonal, so the later tests would misfire.
    if (s->entropy_ratio >= PATTERN_GLOBAL_MIN)
        kind = PATTERN_GLOBAL;
    else if (s->diag >= PATTERN_DIAGONAL_MIN)
        kind = PATTERN_DIAGONAL;
    else if (s->locality >= PATTERN_LOCAL_MIN)
        kind = PATTERN_LOCAL;
    else if (s->sparsity >= PATTERN_SPARSE_MIN)
        kind = PATTERN_SPARSE;
    else
        kind = PATTERN_GLOBAL;   // spread out, just not evenly
    return kind;
}
// end snippet

const char *pattern_name(pattern_kind_t kind) {
    switch (kind) {
    case PATTERN_DIAGONAL: return "diagonal";
    case PATTERN_LOCAL: return "local";
    case PATTERN_GLOBAL: return "global";
    case PATTERN_SPARSE: return "sparse";
    case PATTERN_NONE: break;
    }
    return "?";
}
