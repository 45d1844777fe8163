// tile_mm.h -- the one matrix product the fast kernels are built from: a small
// tile times a small tile, accumulated in registers.
//
// Portable C written so that a compiler keeps a 4 x 16 block of the result in
// vector registers while it streams through the shared dimension: per step, two
// 8-wide loads of b, four broadcasts of a, eight fused multiply-adds (with
// -O3 -march=native on an AVX2 machine). Edges that are not multiples of 4 rows
// or 16 columns take a plain loop.
#ifndef TILE_MM_H
#define TILE_MM_H

enum { TILE_MM_R = 4, TILE_MM_W = 16 };

// a (rows, inner) row stride lda, b (inner, cols) row stride ldb -> c (rows, cols)
// row stride ldc: c = a b when accumulate is 0, c += a b otherwise. No checks:
// sizes >= 0 and the strides are the caller's.
// (torch: c = a @ b, or c += a @ b)
void tile_mm(float *c, const float *a, const float *b, int rows, int inner, int cols,
             int lda, int ldb, int ldc, int accumulate);

#endif
