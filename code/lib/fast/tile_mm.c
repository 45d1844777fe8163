// tile_mm.c -- a register-blocked tile product (see tile_mm.h).
#include "fast/tile_mm.h"

#include <stddef.h>
#include <string.h>

// GCC and Clang: a vector type of TILE_MM_W / 2 floats (8, or 16 where the
// compiler may use AVX-512), so the 4 x TILE_MM_W block is eight named registers
// whatever the compiler's vectoriser decides (with 128-bit or no SIMD it is
// lowered to narrower instructions; the result is the same: each entry of c is
// the same sum in the same order). Other compilers get the plain loop below for
// every tile.
#if defined(__GNUC__)
typedef float vec __attribute__((vector_size(TILE_MM_W / 2 * sizeof(float))));
enum { VL = TILE_MM_W / 2 };

// Unaligned loads and stores, as macros: a function passing vec by value would
// change the ABI between builds with and without AVX.
#define LOADV(x, p) memcpy(&(x), (p), sizeof(vec))
#define STOREV(p, x) memcpy((p), &(x), sizeof(vec))

// c (4, W) = [c +] a (4, inner) b (inner, W): the register block.
static void block_4xw(float *c, const float *a, const float *b, int inner, int lda,
                      int ldb, int ldc, int accumulate) {
    const float *a0 = a, *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
    vec x00 = {0}, x01 = {0}, x10 = {0}, x11 = {0}, x20 = {0}, x21 = {0}, x30 = {0},
        x31 = {0};
    float *c1 = c + ldc, *c2 = c1 + ldc, *c3 = c2 + ldc;
    if (accumulate) {
        LOADV(x00, c), LOADV(x01, c + VL), LOADV(x10, c1), LOADV(x11, c1 + VL);
        LOADV(x20, c2), LOADV(x21, c2 + VL), LOADV(x30, c3), LOADV(x31, c3 + VL);
    }
    for (int p = 0; p < inner; p++) {
        vec b0, b1;
        LOADV(b0, b + (size_t)p * ldb), LOADV(b1, b + (size_t)p * ldb + VL);
        const float y0 = a0[p], y1 = a1[p], y2 = a2[p], y3 = a3[p];
        x00 += y0 * b0, x01 += y0 * b1;
        x10 += y1 * b0, x11 += y1 * b1;
        x20 += y2 * b0, x21 += y2 * b1;
        x30 += y3 * b0, x31 += y3 * b1;
    }
    STOREV(c, x00), STOREV(c + VL, x01), STOREV(c1, x10), STOREV(c1 + VL, x11);
    STOREV(c2, x20), STOREV(c2 + VL, x21), STOREV(c3, x30), STOREV(c3 + VL, x31);
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
            block_4xw(c + (size_t)i0 * ldc + j0, a + (size_t)i0 * lda, b + j0, inner,
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
