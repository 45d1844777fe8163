// tile_mm.c -- a register-blocked tile product (see tile_mm.h).
#include "fast/tile_mm.h"

#include <stddef.h>
#include <string.h>

// GCC and Clang: an 8-float vector type, so the 4 x 16 block is eight named
// registers whatever the compiler's vectoriser decides (with 128-bit or no SIMD
// it is lowered to narrower instructions; the result is the same). Other
// compilers get the plain loop below for every tile.
#if defined(__GNUC__)
typedef float vec8 __attribute__((vector_size(32)));

// Unaligned loads and stores, as macros: a function passing vec8 by value would
// change the ABI between builds with and without AVX.
#define LOAD8(x, p) memcpy(&(x), (p), sizeof(vec8))
#define STORE8(p, x) memcpy((p), &(x), sizeof(vec8))

// c (4, 16) = [c +] a (4, inner) b (inner, 16): the register block.
static void block_4x16(float *c, const float *a, const float *b, int inner, int lda,
                       int ldb, int ldc, int accumulate) {
    const float *a0 = a, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
    vec8 x00 = {0}, x01 = {0}, x10 = {0}, x11 = {0}, x20 = {0}, x21 = {0}, x30 = {0},
         x31 = {0};
    float *c1 = c + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
    if (accumulate) {
        LOAD8(x00, c), LOAD8(x01, c + 8), LOAD8(x10, c1), LOAD8(x11, c1 + 8);
        LOAD8(x20, c2), LOAD8(x21, c2 + 8), LOAD8(x30, c3), LOAD8(x31, c3 + 8);
    }
    for (int p = 0; p < inner; p++) {
        vec8 b0, b1;
        LOAD8(b0, b + (size_t)p * ldb), LOAD8(b1, b + (size_t)p * ldb + 8);
        const float y0 = a0[p], y1 = a1[p], y2 = a2[p], y3 = a3[p];
        x00 += y0 * b0, x01 += y0 * b1;
        x10 += y1 * b0, x11 += y1 * b1;
        x20 += y2 * b0, x21 += y2 * b1;
        x30 += y3 * b0, x31 += y3 * b1;
    }
    STORE8(c, x00), STORE8(c + 8, x01), STORE8(c1, x10), STORE8(c1 + 8, x11);
    STORE8(c2, x20), STORE8(c2 + 8, x21), STORE8(c3, x30), STORE8(c3 + 8, x31);
}
#endif

// snippet: tile_mm
void tile_mm(float *c, const float *a, const float *b, int rows, int inner, int cols,
             int lda, int ldb, int ldc, int accumulate) {
    enum { R = TILE_MM_R, W = TILE_MM_W };
#if defined(__GNUC__)
    const int rows_r = rows / R * R, cols_w = cols / W * W;
    for (int j0 = 0; j0 < cols_w; j0 += W)         // a strip of b stays in L1
        for (int i0 = 0; i0 < rows_r; i0 += R)
            block_4x16(c + (size_t)i0 * ldc + j0, a + (size_t)i0 * lda, b + j0, inner,
                       lda, ldb, ldc, accumulate);
#else
    const int rows_r = 0, cols_w = 0;
#endif
    // the edges: rows below rows_r in columns past cols_w, then the last rows
    for (int i = 0; i < rows; i++)
        for (int j = i < rows_r ? cols_w : 0; j < cols; j++) {
            float s = accumulate ? c[(size_t)i * ldc + j] : 0.0f;
            for (int p = 0; p < inner; p++)
                s += a[(size_t)i * lda + p] * b[(size_t)p * ldb + j];
            c[(size_t)i * ldc + j] = s;
        }
}
// end snippet
