// tile_mm.h -- what the fast kernels are built from: a small tile times a small
// tile, accumulated in registers, and an exp that vectorises.
//
// Portable C written so that a compiler keeps a block of the result (4 x 8 to
// 8 x 32, below) in vector registers while it streams through the shared
// dimension: per step, two vector loads of b, a broadcast of a per row, two
// fused multiply-adds per row (with -O3 -march=native). Edges that are not
// whole blocks take a plain loop.
#ifndef TILE_MM_H
#define TILE_MM_H

#include <stdint.h>
#include <string.h>

// The block is TILE_MM_R rows by TILE_MM_W columns, two vectors a row, as wide
// as the registers the compiler may use: 4 x 8 with SSE's 4 floats (x86-64's
// baseline: the book's programs, built without -march), 4 x 16 with AVX's 8,
// and 8 x 32 with AVX-512's 32 registers of 16 floats (16 accumulators: enough
// products in flight to keep both multiply-add units busy). A vector wider than
// the registers is split by the compiler, through memory: nine times slower
// (measured: the tiled kernel at 2.6 GFLOP/s instead of 23).
#if defined(__AVX512F__)
enum { TILE_MM_R = 8, TILE_MM_W = 32 };
#elif defined(__AVX__)
enum { TILE_MM_R = 4, TILE_MM_W = 16 };
#else
enum { TILE_MM_R = 4, TILE_MM_W = 8 };
#endif

// a (rows, inner) row stride lda, b (inner, cols) row stride ldb -> c (rows, cols)
// row stride ldc: c = a b when accumulate is 0, c += a b otherwise. No checks:
// sizes >= 0 and the strides are the caller's.
// (torch: c = a @ b, or c += a @ b)
void tile_mm(float *c, const float *a, const float *b, int rows, int inner, int cols,
             int lda, int ldb, int ldc, int accumulate);

// snippet: tile_exp2
// t (scalar, <= 8) -> 2^t, the exp the kernels use: exp(x) = 2^(x log2(e)), and
// 2^t needs no second constant to reduce its range. 2^t = 2^k 2^r with
// k = round(t), |r| <= 1/2;
// 2^r is a degree-5 polynomial fitted on [-1/2, 1/2] (relative error 1.9e-7
// with float rounding). Adding 1.5 * 2^23 + 127 rounds t and leaves k + 127 in
// the low bits of the sum; shifted into the exponent field they are 2^k. t below
// about -126.5 rounds (or, below -127, is clamped) to k = -127 and gives 0 (2^k
// with k + 127 = 0 is zero).
static inline float tile_exp2(float t) {
    const float tc = t < -127.0f ? -127.0f : t;     // NaN passes through
    const float shifter = 12582912.0f + 127.0f;     // 1.5 * 2^23 + 127
    const float y = tc + shifter;
    const float kf = y - shifter;                   // round(tc)
    const float r = tc - kf;                        // in [-1/2, 1/2]
    float p = 1.321867225e-03f;                     // fitted with the constant term
    p = p * r + 9.671698324e-03f;                   // held at 1, so 2^0 is exactly 1
    p = p * r + 5.550893024e-02f;
    p = p * r + 2.402223796e-01f;
    p = p * r + 6.931468844e-01f;
    p = p * r + 1.0f;
    uint32_t bits;
    memcpy(&bits, &y, sizeof bits);
    bits <<= 23;                                    // (k + 127) into the exponent
    float two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    return p * two_k;
}
// end snippet

#endif
