// ngram.h -- the yardsticks a language model must beat: unigram and bigram
// models fitted on training tokens (bytes or BPE tokens), scored in bits per
// byte of held-out text.
//
// Smoothing is add-one (Laplace): every count starts at 1, so no held-out
// token gets probability 0.
//     unigram  p(x)     = (c(x) + 1) / (T + V)
//     bigram   p(y | x) = (c(x, y) + 1) / (c(x, .) + V)
// where c(x, .) counts the training pairs that start with x. The first held-out
// token of a bigram has no predecessor and is scored by the unigram.
// T training tokens, U held-out tokens, V vocabulary, bytes = the held-out
// text's length in bytes (U when the tokens are bytes).
#ifndef NGRAM_H
#define NGRAM_H

#include <stddef.h>

// train (T,), held (U,) -> total bits -sum log2 p(held) / bytes under the
// add-one unigram. Returns -1 if V < 1, bytes < 1, T or U < 0, or a token
// is outside 0..V-1. U = 0 gives 0.
double ngram_unigram_bpb(const int *train, long T, const int *held, long U, int V,
                         long bytes);

// As ngram_unigram_bpb for the add-one bigram; -1 also if the V x V table
// cannot be allocated.
double ngram_bigram_bpb(const int *train, long T, const int *held, long U, int V,
                        long bytes);

#endif
