// online_merge.h -- the parallel form of the online softmax (chapter 5, §5.7):
// two partial states, each over its own keys, merged into one over all of them.
//
// A state (M, L, A) over keys K holds M = max of their scores, L = sum exp(s - M)
// and A = sum exp(s - M) v. Both sums can be moved to a new reference M' by the
// factor exp(M - M'), so two states over disjoint keys add up after moving both
// to M' = max(M_a, M_b). Any split of the keys, merged in any order, gives the
// same attention row: the keys can be shared among threads.
#ifndef ONLINE_MERGE_H
#define ONLINE_MERGE_H

#include "variants/online.h"

// a, b: states over disjoint keys with the same d_v -> a covers both keys; b is
// not changed. An empty state (max = -INFINITY: no visible key yet) changes
// nothing when merged in, and merging into one gives a copy of b.
void online_merge(online_state_t *a, const online_state_t *b);

#endif
