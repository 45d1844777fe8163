// tile_mm.c -- a register-blocked tile product (see tile_mm.h).
#include "fast/tile_mm.h"

#include <stddef.h>
#include <string.h>

// GCC and Clang: a vector type of TILE_MM_W / 2 floats (4, 8 or 16: the widest
// registers the compiler may use), so the block's 2 TILE_MM_R accumulators are
// vector registers whatever the compiler's vectoriser decides. Every width gives
// the same result: each entry of c is the same sum in the same order. Other
// compilers get the plain loop below for every tile.
#if defined(__GNUC__)
typedef float vec __attribute__((vector_size(TILE_MM_W / 2 * sizeof(float))));
enum { VL = TILE_MM_W / 2 };

// Unaligned loads and stores, as macros: a function passing vec by value would
// change the ABI between builds with and without AVX.
#define LOADV(x, p) memcpy(&(x), (p), sizeof(vec))
#define STOREV(p, x) memcpy((p), &(x), sizeof(vec))

// c (R, W) = [c +] a (R, inner) b (inner, W): the register block, R x 2 vectors
// (the loops over r have fixed trip counts: the compiler unrolls them and keeps
// acc in registers).
static void block_rxw(float *c, const float *a, const float *b, int inner, int lda,
                      int ldb, int ldc, int accumulate) {
    enum { R = TILE_MM_R };
    vec acc[R][2];
    for (int r = 0; r < R; r++) {
        const float *cr = c + (size_t)r * ldc;
        if (accumulate) {
            LOADV(acc[r][0], cr), LOADV(acc[r][1], cr + VL);
        } else {
            acc[r][0] = (vec){0}, acc[r][1] = (vec){0};
        }
    }
    for (int p = 0; p < inner; p++) {
        vec b0, b1;
        LOADV(b0, b + (size_t)p * ldb), LOADV(b1, b + (size_t)p * ldb + VL);
        for (int r = 0; r < R; r++) {
            const float y = a[(size_t)r * lda + p];
            acc[r][0] += y * b0, acc[r][1] += y * b1;
        }
    }
    for (int r = 0; r < R; r++) {
        float *cr = c + (size_t)r * ldc;
        STOREV(cr, acc[r][0]), STOREV(cr + VL, acc[r][1]);
    }
}
#endif

// snippet: tile_mm
void tile_mm(float *c, const float *a, const float *b, int rows, int inner, int cols,
             int lda, int ldb, int ldc, int accumulate) {
    enum { R = TILE_MM_R, W = TILE_MM_W };
#if defined(__GNUC__)
    const int rows_r = rows / R * R, cols_w = cols / W * W;
    // A strip of W columns of b stays in L1 while every block of rows passes it.
    // Read in place, its rows ldb apart can all fall into a few of L1's sets (a
    // stride of 512 bytes uses one set in eight) and evict each other; copied
    // into one contiguous buffer first, they spread over all sets.
    enum { PACK = 4096 };                          // floats: 16 KB on the stack
    float strip[PACK];
    for (int j0 = 0; j0 < cols_w; j0 += W) {
        const float *bj = b + j0;
        int ld = ldb;
        if (rows_r > R && (size_t)inner * W <= PACK) {
            for (int p = 0; p < inner; p++)
                memcpy(strip + (size_t)p * W, bj + (size_t)p * ldb, W * sizeof(float));
            bj = strip, ld = W;
        }
        for (int i0 = 0; i0 < rows_r; i0 += R)
            block_rxw(c + (size_t)i0 * ldc + j0, a + (size_t)i0 * lda, bj, inner, lda,
                      ld, ldc, accumulate);
    }
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
