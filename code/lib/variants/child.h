// child.h -- the "fixed" sparse pattern of Child et al. (2019), and a check of
// the property that makes it work: every earlier token is reachable in two steps.
//
// Cut the sequence into blocks of l tokens. Query i sees, among the keys j <= i,
// those of its own block (floor(j / l) = floor(i / l)) and the "summary" keys, the
// last c positions of every block (j mod l >= l - c). A summary key has seen its
// whole block, so two layers carry any earlier token to any query.
#ifndef CHILD_H
#define CHILD_H

// -> mask (n, n), 1 = visible: the causal fixed pattern with block length l and
// c summary positions per block. Returns 0 (n = 0: nothing written); -1 (mask
// untouched) if n < 0, l < 1, c < 0 or c > l.
int child_fixed_mask(unsigned char *mask, int n, int l, int c);

// mask (n, n), 1 = visible -> steps (n, n): 1 where i sees j directly, else 2
// where some k has i seeing k and k seeing j, else 0. Returns the number of causal
// pairs (j <= i) with steps 0: 0 means two layers connect every token to every
// later one. n = 0: returns 0; n < 0: -1.
int child_reach_steps(const unsigned char *mask, int n, int *steps);

#endif
