// sparse.h -- sparse attention: each query scores only the keys its pattern
// lets it see (Child et al. 2019), stored row by row as lists of key indices.
//
// The pattern used in the book joins two parts (both symmetric unless causal):
//   local window:  |i - j| <= window
//   strided:       (i - j) mod stride == 0        (stride 0: no strided part)
//   causal:        additionally hide j > i
// A local band alone (stride 0) is local / banded attention.
#ifndef SPARSE_H
#define SPARSE_H

#include <stddef.h>

// Row i may see the keys cols[start[i]] .. cols[start[i + 1] - 1], ascending.
typedef struct {
    int n, m;        // queries, keys
    int *start;      // (n + 1,)
    int *cols;       // (nnz,)
    long nnz;        // visible entries in all
    int max_row;     // the longest row
} sparse_pattern_t;

// 1 if query i may see key j under (window, stride, causal), else 0.
int sparse_visible(int i, int j, int window, int stride, int causal);

// n queries over n keys -> the pattern, built in O(nnz) without an (n, n)
// mask. window < 0: no local part; stride <= 0: no strided part. Returns 0,
// or -1 if memory runs out or n < 0 (p is then empty and safe to free).
int sparse_build(sparse_pattern_t *p, int n, int window, int stride, int causal);

// mask (n, m), 1 = visible -> the same pattern as index lists. Returns 0 or -1
// (out of memory, or n, m < 0).
int sparse_from_mask(sparse_pattern_t *p, const unsigned char *mask, int n, int m);

// p -> mask (n, m) with 1 where the pattern is visible.
void sparse_to_mask(const sparse_pattern_t *p, unsigned char *mask);

// Free what sparse_build / sparse_from_mask allocated; p becomes empty.
void sparse_free(sparse_pattern_t *p);

// Bytes the pattern occupies: (n + 1 + nnz) ints.
size_t sparse_pattern_bytes(const sparse_pattern_t *p);

// Bytes sparse_forward allocates while it runs: one row of scores.
size_t sparse_work_bytes(const sparse_pattern_t *p);

// q (n, d_k), k (m, d_k), v (m, d_v), pattern p (n, m) -> out (n, d_v), equal
// to attention_forward with the pattern as mask; only the nnz visible entries
// are scored and mixed, so the cost is nnz (d_k + d_v) multiply-adds. A row
// with no visible key gives a zero output row. Returns 0, or -1 if d_k or d_v
// is negative (out untouched) or memory runs out (out is then unspecified).
int sparse_forward(const float *q, const float *k, const float *v,
                   const sparse_pattern_t *p, float *out, int d_k, int d_v);

#endif
