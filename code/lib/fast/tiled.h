// tiled.h -- exact attention, tuned: the online softmax of chapter 5 over tiles
// of queries and keys that stay in cache, with a vectorisable exp.
//
// Computes exactly what attention_forward (attention/attention.h) computes,
// softmax(q k^T / sqrt(d_k)) v, without ever holding the (n, m) score matrix:
// each block of TILED_BQ queries streams over blocks of TILED_BK keys, keeping a
// running reference (at most the row max), a running sum and an unnormalised
// output (the online softmax,
// Milakov & Gimelshein 2018; the FlashAttention tiling, Dao et al. 2022).
//
// The code is portable C: the inner loops are written so a compiler vectorises
// them (no branches, unit stride; the products are fast/tile_mm.h), and exp is a
// polynomial the compiler can vectorise too (tiled_exp2, relative error below
// TILED_EXP_REL_ERROR; tiled_exp is the same idea for exp itself). Built with
// -fopenmp, the query blocks of all heads are shared among threads; without it,
// the pragma is left out and the result is the same, bit for bit: each output row
// is computed by one thread in one fixed order.
#ifndef TILED_H
#define TILED_H

#include <stddef.h>

enum { TILED_BQ = 64, TILED_BK = 128 };

// The kernel takes each row's exps against a reference, not its running
// maximum: the first tile's maximum, raised only when a later score passes it
// by more than TILED_LAZY units of log 2, so no weight exceeds 2^TILED_LAZY.
// Saves a pass over almost every tile for the maximum (fast/tiled.c,
// tiled_block): all but each row's first and those where the scores climb.
#define TILED_LAZY 8.0f

// The accuracy both exps promise: relative error against the C library's exp
// (exp2), computed in double, below TILED_EXP_REL_ERROR for every float x in
// [-87, 0] (t in [-126, TILED_LAZY]). tests/unit/test_tiled.c checks this very
// number on every 256th float of those ranges and at the worst points found by
// trying every float of those ranges once (too slow for a test): 2.54e-7 for
// tiled_exp at x = -26.686005, 1.87e-7 for tiled_exp2 at t = -0.49962634 (and
// on [0, TILED_LAZY] 1.87e-7 at t = 0.50037366).
#define TILED_EXP_REL_ERROR 3e-7

// exp(x) for x <= 0 (the only arguments the kernel needs), as a polynomial on
// a reduced range times a power of two built from the exponent bits. x below
// -87 gives 0 (exp(-87) < 2^-125, the smallest normal float's neighbourhood);
// x > 0 is clamped to 0 (gives 1). NaN gives NaN. Relative error below
// TILED_EXP_REL_ERROR on [-87, 0].
float tiled_exp(float x);

// 2^t for t <= TILED_LAZY, the exp the kernel runs on (its scores are in units
// of log 2): a polynomial on [-1/2, 1/2] times a power of two built from exponent
// bits. t below about -126.5 gives 0; t > TILED_LAZY is clamped there. NaN gives
// NaN. Relative error below TILED_EXP_REL_ERROR on [-126, TILED_LAZY].
float tiled_exp2(float t);

// Bytes of working memory tiled_attention_forward uses per thread, beyond its
// inputs and output: independent of n and m (and 16 KB of stack in tile_mm).
// Plus, shared, one transposed copy of the keys.
size_t tiled_workspace_bytes(int d_k, int d_v);

// q (h, n, d_k), k (h, m, d_k), v (h, m, d_v) -> out (h, n, d_v)
//   out[h] = softmax(q[h] k[h]^T / sqrt(d_k)) v[h], for h heads stored one after
//   another. No mask. Sizes: n, m, d_k, d_v >= 1 and h >= 1, else returns -1 and
//   writes nothing; m >= 1 means every row has a key, so no row is empty.
// Returns 0; -1 on bad sizes (out untouched) or when a thread's workspace cannot
// be allocated (out then partly written).
// (torch: (q @ k.transpose(-1, -2) / sqrt(d_k)).softmax(-1) @ v, head by head)
int tiled_attention_forward(const float *q, const float *k, const float *v, float *out,
                            int h, int n, int m, int d_k, int d_v);

// q (h, n, d_k), k (h, m, d_k), v (h, m, d_v) -> out (h, n, d_v)
//   as tiled_attention_forward with the causal mask: query i sees keys j <= i
//   only. Key tiles that no query of a block sees are never computed (about half
//   the work when n = m); tiles on the diagonal are masked entry by entry. A
//   hidden key gets weight 0 but its value is still multiplied there (0 v_j), so
//   an inf or NaN in a hidden value can make earlier rows of its query block NaN,
//   as attention_forward makes every row.
// Returns 0; -1 as tiled_attention_forward.
// (torch: scores.masked_fill(~torch.ones(n, m).tril().bool(), -inf), then as above)
int tiled_attention_causal(const float *q, const float *k, const float *v, float *out,
                           int h, int n, int m, int d_k, int d_v);

// The sizes of one call: h heads, each of n queries and m keys; queries and keys
// d_k wide, values d_v wide; causal 1: query i sees keys j <= i only, 0: all keys.
typedef struct {
    int h, n, m, d_k, d_v, causal;
} tiled_shape_t;

// q (h, n, d_k), k (h, m, d_k), v (h, m, d_v) -> out (h, n, d_v), lse (h, n) or NULL
//   the kernel itself, sizes and mask in *shape: causal 0 or 1 as the two above;
//   lse[i] is row i's log-sum-exp of its visible scaled scores,
//   log(sum_j exp(q_i . k_j / sqrt(d_k))), all the backward needs to recompute the
//   weights.
// Returns 0; -1 as tiled_attention_forward.
// (torch: torch.logsumexp(scores, -1) for lse)
int tiled_attention(const float *q, const float *k, const float *v, float *out,
                    float *lse, const tiled_shape_t *shape);

#endif
