// mask.h -- attention masks: which keys each query may see.
//
// A mask is an (n, m) array of unsigned char, one entry per (query i, key j):
// 1 = visible (query i may attend to key j), 0 = hidden. Row i is what query i
// sees. Every builder below writes that convention; mask_invert converts from
// the opposite one (1 = masked) that PyTorch's nn.MultiheadAttention uses.
//
// The module builds the mask kinds of chapter 6, combines and converts them,
// measures them (density, visible positions, how far information travels
// through stacked layers) and runs multi-head attention on a padded batch.
#ifndef MASK_H
#define MASK_H

#include <stddef.h>

#include "base/rng.h"
#include "layers/multihead.h"

// Token id 0 is padding: a filler after the end of a shorter sequence.
enum { MASK_PAD_ID = 0 };

// ---------------------------------------------------------------------------
// builders

// -> mask (n, n), mask[i][j] = 1 iff j <= i: query i sees itself and the past.
// (torch: torch.ones(n, n).tril().bool()) n = 0 writes nothing.
void mask_causal(unsigned char *mask, int n);

// -> mask (n, m), every entry 1: every query sees every key (bidirectional, as
// in BERT's encoder). (torch: torch.ones(n, m, dtype=torch.bool))
void mask_full(unsigned char *mask, int n, int m);

// -> mask (n, n), mask[i][j] = 1 iff |i - j| <= w: a local band of half-width
// w, so query i sees at most 2 w + 1 keys, w on each side of itself.
// w = 0 leaves the diagonal only; w < 0 hides everything; w >= n - 1 is full.
// (torch: torch.ones(n, n).tril(w).triu(-w).bool())
void mask_band(unsigned char *mask, int n, int w);

// -> mask (n, n): entry (i, j), i != j, is visible with probability p, drawn
// independently from rng in row-major order (one rng_uniform per off-diagonal
// entry: visible iff u < p). The diagonal is always visible, so every token
// sees at least itself. p <= 0: diagonal only; p >= 1: full.
void mask_random(unsigned char *mask, int n, double p, rng_t *rng);

// ids (n,) token ids -> keep (n,), keep[j] = 1 iff ids[j] != MASK_PAD_ID.
// (torch: ids != 0; nn.MultiheadAttention's key_padding_mask is its negation)
void mask_key_padding(const int *ids, int n, unsigned char *keep);

// ids (n,) token ids -> mask (n, n), mask[i][j] = 1 iff ids[j] != MASK_PAD_ID:
// the key padding mask repeated for every query row. Padded queries keep a
// normal row (see the chapter: their outputs are ignored, not masked).
// (torch: (ids != 0)[None, :].expand(n, n))
void mask_padding(const int *ids, int n, unsigned char *mask);

// a, b (size,) -> out (size,) = a AND b: visible only where both are visible.
// out may alias a or b. (torch: a & b)
void mask_and(const unsigned char *a, const unsigned char *b, unsigned char *out,
              size_t size);

// a (size,) -> out (size,) = 1 - a: flips between "1 = visible" and
// "1 = masked" (0 for any nonzero input). out may alias a. (torch: ~a)
void mask_invert(const unsigned char *a, unsigned char *out, size_t size);

// ---------------------------------------------------------------------------
// conversions: additive and multiplicative masking

// mask (size,) -> bias (size,): 0 where visible, hidden_value where hidden
// (-INFINITY or a large negative number such as -1e9). Adding bias to the
// scores before softmax is "additive masking".
// (torch: torch.zeros(size).masked_fill(~mask, hidden_value))
void mask_to_additive(const unsigned char *mask, float *bias, size_t size,
                      float hidden_value);

// w (n, m) softmax weights, mask (n, m) -> w * mask, in place ("multiplicative
// masking" after the softmax). renormalise = 0: rows no longer sum to 1;
// renormalise != 0: each row is divided by its new sum, which gives exactly the
// masked softmax; a row whose sum became 0 stays all zeros.
void mask_multiply_rows(float *w, const unsigned char *mask, int n, int m,
                        int renormalise);

// x -> x rounded to the nearest IEEE half-precision (float16) value, ties to
// even, returned as float. |x| >= 65520 becomes +-infinity (float16's largest
// finite value is 65504); NaN stays NaN. (torch: torch.tensor(x).half().float())
float mask_round_half(float x);

// ---------------------------------------------------------------------------
// statistics

// snippet: mask_stats_t
typedef struct {
    double density;        // visible entries / (n m)
    double mean_visible;   // visible keys per query, averaged over the n rows
    int max_visible;       // most visible keys in one row
    int min_visible;       // fewest visible keys in one row
    int empty_rows;        // rows with no visible key (fully masked queries)
    int farthest;          // largest |i - j| over visible entries; -1 if none
} mask_stats_t;
// end snippet

// mask (n, m) -> its statistics. n = 0 or m = 0: all fields 0, farthest -1.
mask_stats_t mask_stats(const unsigned char *mask, int n, int m);

// mask (n, n) of one layer -> reach (n, n) after `layers` stacked layers:
// reach[i][j] = 1 iff information at position j can arrive at position i.
// Each layer moves information along one visible entry, and the residual
// connection keeps what a position already had, so reach = (I OR mask)^layers
// in boolean matrix products. layers = 0 gives the identity. Returns 0, or -1
// if layers < 0, n < 0 or the n x n workspace cannot be allocated (reach
// untouched).
// (torch: torch.matrix_power((I | mask).long(), layers) > 0)
int mask_reach(const unsigned char *mask, int n, int layers, unsigned char *reach);

// -> mask (n, n), mask[i][j] = 1 iff 0 <= i - j <= w: causal attention over a
// sliding window, query i sees itself and the w tokens before it (Mistral's
// sliding-window attention; Longformer's causal band). w = 0 leaves the
// diagonal; w >= n - 1 is mask_causal; w < 0 hides everything. n = 0 writes
// nothing. (torch: torch.ones(n, n).tril().triu(-w).bool())
void mask_window_causal(unsigned char *mask, int n, int w);

// -> mask (n, n) of a prefix language model (UniLM, T5's prefix LM): the first
// `prefix` positions see one another both ways, every later one is causal, so
// mask[i][j] = 1 iff j <= i or (i < prefix and j < prefix). prefix <= 0 gives
// mask_causal, prefix >= n gives mask_full. n = 0 writes nothing.
// (torch: m = torch.ones(n, n).tril().bool(); m[:p, :p] = True)
void mask_prefix_lm(unsigned char *mask, int n, int prefix);

// mask (n, n) -> 1 if it is transitive as a relation (i sees k and k sees j
// imply i sees j; in boolean matrix products M^2 <= M), else 0. A transitive
// mask never lets a second layer see further than the first (exercise 1).
// n <= 0: 1 (the empty relation is transitive).
// (torch: not ((m.long() @ m.long() > 0) & ~m).any())
int mask_is_transitive(const unsigned char *mask, int n);

// mask (n, n) of one layer -> depth (n, n): the fewest stacked layers (with the
// residual connection, as in mask_reach) after which information at position j
// has arrived at position i; 0 for i == j, -1 if no number of layers gets it
// there. depth[i][j] <= L exactly where mask_reach(mask, n, L) sets reach[i][j].
// Returns 0; -1 (depth untouched) if n < 0. n = 0 writes nothing.
// (torch: no built-in; a breadth-first search per query over the mask's edges)
int mask_min_layers(const unsigned char *mask, int n, int *depth);

typedef struct {
    double mean_distance;  // sum_j w_ij |i - j|, averaged over the rows
    double entropy;        // -sum_j w_ij ln w_ij (nats), averaged over the rows
    int farthest;          // largest |i - j| with w_ij > threshold; -1 if none
} mask_flow_t;

// w (n, m) attention weights -> how far they move information: the mean
// distance a unit of weight travels, the mean row entropy, and the farthest
// position that receives more than `threshold` of some row's weight.
// n = 0: all fields 0, farthest -1.
mask_flow_t mask_flow(const float *w, int n, int m, double threshold);

// ---------------------------------------------------------------------------
// a padded batch through multi-head attention

// x (batch, n, d_model) padded token vectors, keep (batch, n) with 1 = real token
// (or NULL: all real), attn_mask (n, n) shared by the batch (or NULL: full)
//   -> out (batch, n, d_model), weights (batch, h, n, n) or NULL.
// Sequence b attends with mask attn_mask AND keep[b] (broadcast over its query
// rows), one (n, n) mask shared by all h heads. A query that sees no key gets
// zero weights and the output row b_O. batch <= 0 or n <= 0: nothing is
// written, returns 0. Returns 0, or -1 if memory runs out.
// (torch: nn.MultiheadAttention(d, h, batch_first=True)(x, x, x,
//   key_padding_mask=~keep, attn_mask=~attn_mask, average_attn_weights=False),
//  whose rows with no visible key are NaN instead)
int mask_mha_batch(const mha_params_t *p, const float *x, int batch, int n,
                   const unsigned char *keep, const unsigned char *attn_mask,
                   float *out, float *weights);

#endif
