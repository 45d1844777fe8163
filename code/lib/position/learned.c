// learned.c -- a learned positional table: allocate, initialise, look up.
#include "position/learned.h"

#include <stdlib.h>
#include <string.h>

int learned_pe_alloc(learned_pe_t *p, int max_len, int d) {
    p->max_len = max_len, p->d = d, p->table = NULL;
    if (max_len < 1 || d < 1) return -1;
    p->table = calloc((size_t)max_len * d, sizeof(float));
    return p->table ? 0 : -1;
}

void learned_pe_free(learned_pe_t *p) {
    free(p->table);
    p->table = NULL;
}

void learned_pe_init(learned_pe_t *p, rng_t *rng, float std) {
    rng_fill_normal(rng, p->table, p->max_len * p->d, 0.0f, std);
}

// snippet: learned_pe_lookup
int learned_pe_lookup(const learned_pe_t *p, const int *pos, int n, float *out) {
    if (n < 0) return -1;
    for (int r = 0; r < n; r++)              // check every position first
        if (pos[r] < 0 || pos[r] >= p->max_len) return LEARNED_PE_OUT_OF_RANGE;
    for (int r = 0; r < n; r++)
        memcpy(out + (size_t)r * p->d, p->table + (size_t)pos[r] * p->d,
               sizeof(float) * (size_t)p->d);
    return 0;
}
// end snippet
