// multihead.h -- multi-head attention, MultiHead(Q, K, V) = Concat(head_1..head_h) W_O.
//
// h heads run scaled dot-product attention side by side, each on its own
// d_k = d_model / h wide slice of the projected queries, keys and values.
// Their outputs are put back side by side and mixed by one more matrix W_O.
//
// Two forward passes compute the same thing:
//   mha_forward       projects all heads at once, splits, attends, concatenates;
//   mha_forward_loop  runs h independent heads, each with its own weight slices.
// A unit test (and the chapter 4 program) checks that they agree.
//
// Queries may come from one sequence (n tokens) and keys / values from another
// (m tokens): with xq == xkv this is self-attention, otherwise cross-attention.
#ifndef MULTIHEAD_H
#define MULTIHEAD_H

#include <stddef.h>

#include "base/rng.h"

// snippet: mha_params_t
// The trainable part of a multi-head attention layer. Head i owns columns
// [i d_k, (i+1) d_k) of W_Q, W_K, W_V and rows [i d_k, (i+1) d_k) of W_O.
typedef struct {
    int d_model;    // width of every token vector
    int n_heads;    // h
    int d_k;        // d_model / h: width of one head's queries, keys, values
    float *w_q;     // (d_model, d_model)
    float *w_k;     // (d_model, d_model)
    float *w_v;     // (d_model, d_model)
    float *w_o;     // (d_model, d_model)
    float *b_o;     // (d_model,)
} mha_params_t;
// end snippet

// Allocate zeroed parameters. Returns 0; -1 if d_model or n_heads is not
// positive or d_model is not divisible by n_heads; -2 if memory ran out (then
// nothing stays allocated).
int mha_alloc(mha_params_t *p, int d_model, int n_heads);

// Free what mha_alloc allocated; safe on a zeroed struct and twice.
void mha_free(mha_params_t *p);

// Fill W_Q, W_K, W_V, W_O (in that order) with Xavier-uniform samples,
// U(-a, a) with a = sqrt(6 / (d_model + d_model)); b_O becomes 0.
// (torch: nn.init.xavier_uniform_ on each weight, as in most implementations)
void mha_init(mha_params_t *p, rng_t *rng);

// Number of parameters: 4 d_model^2 + d_model, whatever the number of heads.
long mha_param_count(const mha_params_t *p);

// x (n, h d_k) -> heads (h, n, d_k): head i gets columns [i d_k, (i+1) d_k).
// (torch: x.view(n, h, d_k).transpose(0, 1))
void mha_split_heads(const float *x, float *heads, int n, int n_heads, int d_k);

// heads (h, n, d_k) -> x (n, h d_k), the inverse of mha_split_heads.
// (torch: heads.transpose(0, 1).reshape(n, h * d_k))
void mha_concat_heads(const float *heads, float *x, int n, int n_heads, int d_k);

// xq (n, d_model) queries' source, xkv (m, d_model) keys' and values' source,
// mask (n, m) or NULL (1 = visible, shared by all heads)
//   -> out (n, d_model), weights (h, n, m) or NULL
// out must not overlap xq or xkv. Allocates a workspace of about
// 4 (n + m) d_model floats; returns 0, or -1 if that allocation fails or n or
// m is negative. n = 0 writes nothing; m = 0 (no keys) gives out = b_O.
// (torch gives NaN for a query that sees no key, where this gives b_O too.)
// (torch: nn.MultiheadAttention(d_model, h, bias=False) with an output bias,
//  out, w = mha(xq, xkv, xkv, attn_mask=~mask, average_attn_weights=False))
int mha_forward(const mha_params_t *p, const float *xq, int n, const float *xkv, int m,
                const unsigned char *mask, float *out, float *weights);

// Same inputs and outputs as mha_forward, computed as h independent heads:
// head i projects with its own (d_model, d_k) slices of W_Q, W_K, W_V, attends,
// and adds head_i W_O^i (W_O^i = rows [i d_k, (i+1) d_k) of W_O) to the output.
// Returns 0, or -1 if its workspace cannot be allocated.
int mha_forward_loop(const mha_params_t *p, const float *xq, int n, const float *xkv,
                     int m, const unsigned char *mask, float *out, float *weights);

// ---------------------------------------------------------------------------
// Training: a forward pass that keeps what the backward pass needs.

// Activations mha_forward_cache leaves for mha_backward (caller-owned; bind
// them to one buffer of mha_cache_floats() floats with mha_cache_bind).
typedef struct {
    float *q_h;   // (h, n, d_k) queries, split into heads
    float *k_h;   // (h, m, d_k) keys
    float *v_h;   // (h, m, d_k) values
    float *w;     // (h, n, m) attention weights
    float *ctx;   // (n, d_model) the heads' outputs, concatenated (before W_O)
} mha_cache_t;

// Floats needed for a cache of n queries and m keys (0 for a negative size).
size_t mha_cache_floats(const mha_params_t *p, int n, int m);

// Point c's arrays into buf (mha_cache_floats(p, n, m) floats).
void mha_cache_bind(mha_cache_t *c, float *buf, const mha_params_t *p, int n, int m);

// mha_forward, keeping its activations in c: the same out, bit for bit.
// Returns 0 (n = 0: nothing to do), or -1 for a negative n or m or if its
// workspace cannot be allocated.
int mha_forward_cache(const mha_params_t *p, const float *xq, int n, const float *xkv,
                      int m, const unsigned char *mask, mha_cache_t *c, float *out);

// Gradients of mha_forward_cache, given its inputs, its cache and dout (n, d_model).
// Accumulate (+=) into g (shaped like p: w_q, w_k, w_v, w_o, b_o), dxq (n, d_model)
// and dxkv (m, d_model); dxq and dxkv may be the same buffer (self-attention, where
// xq == xkv) or NULL. The mask needs no gradient: hidden weights are 0.
// Returns 0 (n = 0: nothing to do), or -1 for a negative n or m or if its
// workspace cannot be allocated (nothing accumulated).
// (torch: autograd through nn.MultiheadAttention)
int mha_backward(const mha_params_t *p, mha_params_t *g, const float *xq, int n,
                 const float *xkv, int m, const mha_cache_t *c, const float *dout,
                 float *dxq, float *dxkv);

#endif
