// sampling.h -- the filters applied before sampling the next token (chapter 10's
// generation): top-k (Fan et al. 2018) and nucleus or top-p sampling
// (Holtzman et al. 2020).
//
// V = vocabulary size. Entries are ranked by value, largest first; equal values
// by index, the smaller first (so the filters are deterministic).
#ifndef SAMPLING_H
#define SAMPLING_H

// logits (V,) <- the k best entries kept, every other one set to -INFINITY, so
// that a softmax gives them probability 0. k >= V changes nothing. Returns the
// number kept; -1 (logits untouched) if k < 1 or V < 1.
// (torch: transformers' TopKLogitsWarper(k))
int sampling_top_k(float *logits, int v, int k);

// probs (V,), a distribution <- the nucleus: entry j is kept when the
// probabilities ranked before it add up to less than p, so the kept entries are
// the fewest best ones whose sum reaches p (at least one). The kept entries are
// divided by their sum, the others set to 0. Returns the number kept; -1 (probs
// untouched) if V < 1, or p is not in (0, 1] (NaN too). Sums in double.
// (torch: transformers' TopPLogitsWarper(p), applied to probabilities)
int sampling_top_p(float *probs, int v, double p);

#endif
