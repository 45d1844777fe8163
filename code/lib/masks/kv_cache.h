// kv_cache.h -- autoregressive decoding with a key/value cache.
//
// A decoder generates one token at a time. With a causal mask, the key and
// value of a token never change once it has been computed, because no token
// sees a later one. So instead of running the whole prefix through the layer
// again for every new token, the layer keeps the keys and values it has
// already made in a cache and, per step, projects only the newest token:
// one query, one key, one value. The new query attends to every cached key.
// A unit test (and the chapter 6 program) checks that this gives the same
// outputs as mha_forward on the full sequence with a causal mask.
#ifndef KV_CACHE_H
#define KV_CACHE_H

#include "layers/multihead.h"

// snippet: kv_cache_t
// The cache of one multi-head attention layer. Keys and values are stored per
// head, (h, capacity, d_k), so that head i's first len keys are one
// contiguous (len, d_k) matrix, ready for attention_forward.
typedef struct {
    int d_model, n_heads, d_k;
    int capacity;   // most tokens it can hold
    int len;        // tokens cached so far
    float *k;       // (h, capacity, d_k)
    float *v;       // (h, capacity, d_k)
    float *work;    // 3 d_model + capacity floats of workspace for kv_step
} kv_cache_t;
// end snippet

// Allocate an empty cache for a layer of width d_model with n_heads heads.
// Returns 0; -1 if a size is not positive or n_heads does not divide d_model;
// -2 if memory ran out (then nothing stays allocated).
int kv_alloc(kv_cache_t *c, int d_model, int n_heads, int capacity);

// Free what kv_alloc allocated; safe on a zeroed struct and twice.
void kv_free(kv_cache_t *c);

// Forget every cached token (len = 0); the memory stays.
void kv_reset(kv_cache_t *c);

// x (d_model,) the newest token -> out (d_model,) its attention output,
// weights (h, len) or NULL, len counted after this token was appended.
// Projects x to q, k, v, appends k and v to the cache, and lets q attend to
// all cached keys (the causal mask is implicit: later tokens are not there
// yet). Returns 0; -1 if the cache is full or was made for another shape
// (then nothing changes). (torch: the last row of
// nn.MultiheadAttention(x_1..t, x_1..t, x_1..t, attn_mask=causal))
int kv_step(const mha_params_t *p, kv_cache_t *c, const float *x, float *out,
            float *weights);

// Multiply-adds to produce the output of the t-th token (t >= 1) of one layer
// of width d_model:
//   kv_macs_cached:   project 1 token (4 d^2: q, k, v and W_O) and attend over
//                     t cached keys (2 t d: scores and the weighted sum);
//   kv_macs_uncached: rerun mha_forward on all t tokens with a causal mask
//                     (4 t d^2 + 2 t^2 d, since it computes every score).
// Exact counts of the library's loops; t < 1 or d_model < 1 gives 0.
long long kv_macs_cached(int d_model, int t);
long long kv_macs_uncached(int d_model, int t);

// Bytes the cache holds per token: a key and a value of d_model floats in
// each of `layers` layers, 2 d_model layers sizeof(float). Negative sizes: 0.
long long kv_bytes_per_token(int d_model, int layers);

// Tokens a paged cache allocates for a sequence of len tokens, in pages of
// `page` tokens each: len rounded up to a whole page, so it wastes fewer than
// `page` slots per sequence (Kwon et al. 2023). len <= 0: 0; page < 1: -1.
long long kv_paged_tokens(long long len, int page);

#endif
