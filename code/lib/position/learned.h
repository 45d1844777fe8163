// learned.h -- a learned (trainable) table of position vectors.
//
// Row p of the table is the vector added to the token at position p. The
// table is a parameter like any weight matrix: it starts small and random
// and training shapes it. It has max_len rows, and so no vector for a
// position at or beyond max_len.
#ifndef LEARNED_H
#define LEARNED_H

#include "base/rng.h"

// snippet: learned_pe_t
typedef struct {
    int max_len, d;   // positions 0 .. max_len - 1, each a d-vector
    float *table;     // (max_len, d)
} learned_pe_t;
// end snippet

enum { LEARNED_PE_OUT_OF_RANGE = -2 };

// Allocate a zeroed (max_len, d) table. Returns 0; -1 if max_len < 1, d < 1
// or memory ran out (then nothing stays allocated).
int learned_pe_alloc(learned_pe_t *p, int max_len, int d);

// Free what learned_pe_alloc allocated; safe on a zeroed struct.
void learned_pe_free(learned_pe_t *p);

// table <- independent N(0, std^2) samples (std = 0.02 is a common choice).
// (torch: nn.init.normal_(emb.weight, 0, std))
void learned_pe_init(learned_pe_t *p, rng_t *rng, float std);

// pos (n,) -> out (n, d), out[r] = table[pos[r]].
// Returns 0; or LEARNED_PE_OUT_OF_RANGE, writing nothing, if any pos[r] < 0
// or pos[r] >= max_len: the table has no row to give. n == 0 writes nothing;
// n < 0 returns -1.
// (torch: F.embedding(pos, table), which raises IndexError out of range)
int learned_pe_lookup(const learned_pe_t *p, const int *pos, int n, float *out);

#endif
