// tiled.h -- exact attention, tuned: the online softmax of chapter 5 over tiles
// of queries and keys that stay in cache, with a vectorisable exp.
//
// Computes exactly what attention_forward (attention/attention.h) computes,
// softmax(q k^T / sqrt(d_k)) v, without ever holding the (n, m) score matrix:
// each block of TILED_BQ queries streams over blocks of TILED_BK keys, keeping a
// running row max, a running sum and an unnormalised output (the online softmax,
// Milakov & Gimelshein 2018; the FlashAttention tiling, Dao et al. 2022).
//
// The code is portable C: the inner loops are written so a compiler vectorises
// them (no branches, unit stride), and exp is a polynomial the compiler can
// vectorise too (tiled_exp, relative error below 2e-7). Built with -fopenmp, the
// query blocks of all heads are shared among threads; without it, the pragma is
// left out and the result is the same, bit for bit: each output row is computed
// by one thread in one fixed order.
#ifndef TILED_H
#define TILED_H

#include <stddef.h>

enum { TILED_BQ = 64, TILED_BK = 128 };

// exp(x) for x <= 0 (the only arguments the kernel needs), as a polynomial on
// a reduced range times a power of two built from the exponent bits. x below
// -87 gives 0 (exp(-87) < 2^-125, the smallest normal float's neighbourhood);
// x > 0 is clamped to 0 (gives 1). NaN gives NaN.
float tiled_exp(float x);

// Bytes of working memory tiled_attention_forward uses per thread, beyond its
// inputs and output: independent of n and m.
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

#endif
