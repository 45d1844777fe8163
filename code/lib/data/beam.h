// beam.h -- beam search over a bigram model (chapter 8's decoding, beyond greedy).
//
// Greedy decoding (s2s_greedy) keeps one hypothesis and takes the most probable
// next token every step; a token that looks best now can lead to a poor
// sentence. Beam search keeps the `beam` most probable partial sequences
// instead. Every step extends each of them by every token, scores the
// candidates by their total log probability, and keeps the best `width` of
// them (ties: the one generated first, by hypothesis rank, then token id). A
// kept candidate that ends in `end` is finished and the width shrinks by one
// (Jurafsky and Martin, Speech and Language Processing, ch. 13); the search
// stops when the width reaches 0 or after max_len steps. The answer is the
// finished or, after max_len steps, unfinished hypothesis of highest total log
// probability (no length normalisation; ties: the first found).
//
// The model here is a table, so the search can be checked against brute
// force: logp (V, V), logp[a V + b] = log P(next = b | previous = a).
// With beam = 1 this is greedy decoding; with beam >= V^(max_len - 1) it is
// exhaustive.
#ifndef BEAM_H
#define BEAM_H

// logp (V, V), start, end in 0..V-1 -> out (max_len,): the tokens after start
// of the best hypothesis, *score its total log probability (in double); returns
// its length L (1..max_len; out[L - 1] == end if it finished, out[L..] untouched).
// Returns -1 (nothing written) if V, beam or max_len is below 1, start or end is
// outside 0..V-1, or memory for beam x V candidates ran out.
// (torch: no built-in; transformers' generate(num_beams=beam) without length
//  penalty is the same search)
int beam_search(const float *logp, int v, int start, int end, int beam, int max_len,
                int *out, double *score);

#endif
