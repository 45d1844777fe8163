// beam.h -- beam search (chapter 8's decoding, beyond greedy), for any model that
// gives the log probabilities of the next token; and, over a bigram table, the
// exact best sequence it approaches.
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
// beam_begin, beam_step and beam_end run the search for a model they never
// see: the caller gives each step the log probabilities that follow every kept
// hypothesis (s2s_beam, chapter 8's translation model). beam_search runs it
// over a table, logp (V, V), logp[a V + b] = log P(next = b | previous = a),
// where it can be checked against brute force: with beam = 1 it is greedy
// decoding; with beam >= V^(max_len - 1) it is exhaustive, and it finds what
// beam_viterbi computes directly.
#ifndef BEAM_H
#define BEAM_H

// One hypothesis: its total log probability, the hypothesis of the previous
// step it extends (its index there; -1 for none) and its last token.
typedef struct {
    double score;
    int parent, token;
} beam_hyp_t;

// A search in progress. The hypotheses kept at the last step are the `alive`
// entries hist + (step - 1) beam (none before the first step); the answer so far
// is hypothesis best_i of step best_step (-1: none yet).
typedef struct {
    int v, end, beam, max_len;
    int step, alive, width;          // steps taken, kept at the last, room left
    int open;                        // unfinished among the kept (start: 1)
    int best_step, best_i;
    double best;
    beam_hyp_t *hist;                // (max_len, beam): every step's kept ones
    beam_hyp_t *cand;                // (beam V,) one step's candidates
    unsigned char *taken;            // (beam V,)
} beam_t;

// Start a search of width `beam` over V tokens, for at most max_len steps, with
// one hypothesis: the start. Returns 0; -1 (s zeroed, nothing allocated) if V,
// beam or max_len is below 1, end is outside 0..V-1, or memory ran out.
int beam_begin(beam_t *s, int v, int end, int beam, int max_len);

// One step. logp (s->alive, V): row i the log probabilities of the next token
// after hypothesis i of the last step (before the first step, one row: after
// the start); rows of finished hypotheses are not read. Keeps the best
// candidates in the next row of s->hist, retires those that end. Returns 1 if
// the search goes on (a step is left, the beam has room and a hypothesis is
// unfinished), 0 when it is over; once over, a call changes nothing.
int beam_step(beam_t *s, const float *logp);

// out (max_len,) <- the tokens of the best hypothesis, *score its total log
// probability; returns its length (0: no step was taken, nothing written). Frees
// s (zeroed). out or score NULL: only frees, returns 0.
int beam_end(beam_t *s, int *out, double *score);

// logp (V, V), start, end in 0..V-1 -> out (max_len,): the tokens after start
// of the best hypothesis, *score its total log probability (in double); returns
// its length L (1..max_len; out[L - 1] == end if it finished, out[L..] untouched).
// Returns -1 (nothing written) if V, beam or max_len is below 1, start or end is
// outside 0..V-1, or memory for beam x V candidates ran out.
// (torch: no built-in; transformers' generate(num_beams=beam) without length
//  penalty is the same search)
int beam_search(const float *logp, int v, int start, int end, int beam, int max_len,
                int *out, double *score);

// The exact answer of the search above with an unlimited beam, by dynamic
// programming: of all sequences y_1..y_L after start (1 <= L <= max_len) that
// contain end only as y_L, or not at all when L = max_len, the one of highest
// sum of logp[y_{t-1} V + y_t] (y_0 = start). out (max_len,) <- its tokens,
// *score that sum; returns L (out[L..] untouched). Ties: any of the best.
// Works in max_len V doubles and ints. Returns -1 (nothing written) if V or
// max_len is below 1, start or end is outside 0..V-1, or memory ran out.
// (torch: no built-in)
int beam_viterbi(const float *logp, int v, int start, int end, int max_len, int *out,
                 double *score);

#endif
