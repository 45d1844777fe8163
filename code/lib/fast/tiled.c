// tiled.c -- exact attention over cache-sized tiles (see tiled.h).
#include "fast/tiled.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// snippet: tiled_exp
// exp(x) = 2^k exp(r) with k = round(x / ln 2), |r| <= ln(2) / 2. Everything is
// plain arithmetic (no calls, no branches) so loops over it vectorise.
static inline float exp_nonpositive(float x) {
    const float xc = x < -87.0f ? -87.0f : (x > 0.0f ? 0.0f : x);
    const float round_magic = 12582912.0f;          // 1.5 * 2^23: adding it rounds
    const float kf = (xc * 1.44269504f + round_magic) - round_magic;
    float r = xc - kf * 0.693145752f;               // ln 2 split in two parts, so
    r = r - kf * 1.42860677e-6f;                    // r is exact to float rounding
    float p = 1.0f / 720.0f;                        // Taylor polynomial, degree 6
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    int32_t bits = ((int32_t)kf + 127) * (1 << 23); // 2^k from the exponent bits
    float two_k;
    memcpy(&two_k, &bits, sizeof two_k);
    return x < -87.0f ? 0.0f : p * two_k;
}
// end snippet

float tiled_exp(float x) {
    return x != x ? x : exp_nonpositive(x);
}

size_t tiled_workspace_bytes(int d_k, int d_v) {
    // scaled query block (BQ, d_k), scores (BQ, BK), running max and sum (BQ),
    // output accumulator (BQ, d_v).
    return sizeof(float) * ((size_t)TILED_BQ * d_k + (size_t)TILED_BQ * TILED_BK +
                            2 * (size_t)TILED_BQ + (size_t)TILED_BQ * d_v);
}

// The two products of a tile. Each output row is accumulated in a local array
// of fixed length, which the compiler keeps in vector registers while the loop
// over the shared dimension streams through one operand.

// s (BQ, BK) = q_blk (BQ, d_k) kt (d_k, BK): every score of the tile.
static void tile_scores(const float *qs, const float *kt, float *s, int d_k) {
    for (int i = 0; i < TILED_BQ; i++) {
        float a[TILED_BK] = {0};
        const float *qi = qs + (size_t)i * d_k;
        for (int c = 0; c < d_k; c++) {
            const float qic = qi[c], *kc = kt + (size_t)c * TILED_BK;
            for (int j = 0; j < TILED_BK; j++) a[j] += qic * kc[j];
        }
        memcpy(s + i * TILED_BK, a, sizeof a);
    }
}

enum { CW = 64 };   // output columns accumulated at once

// acc (BQ, d_v) += p (BQ, BK) v_blk (BK, d_v), for the first bk keys.
static void tile_combine(const float *p, const float *v, float *acc, int bk, int d_v) {
    for (int c0 = 0; c0 < d_v; c0 += CW) {
        const int w = d_v - c0 < CW ? d_v - c0 : CW;
        for (int i = 0; i < TILED_BQ; i++) {
            float a[CW] = {0};
            const float *pi = p + i * TILED_BK;
            if (w == CW)
                for (int j = 0; j < bk; j++) {
                    const float pij = pi[j], *vj = v + (size_t)j * d_v + c0;
                    for (int c = 0; c < CW; c++) a[c] += pij * vj[c];
                }
            else
                for (int j = 0; j < bk; j++)
                    for (int c = 0; c < w; c++) a[c] += pi[j] * v[(size_t)j * d_v + c0 + c];
            float *ai = acc + (size_t)i * d_v + c0;
            for (int c = 0; c < w; c++) ai[c] += a[c];
        }
    }
}

// One block of bq <= TILED_BQ queries against all m keys of one head. kt holds
// the head's keys block by block, each block transposed: (blocks, d_k, BK).
// snippet: tiled_block
static void tiled_block(const float *q, const float *kt, const float *v,
                        float *out, int bq, int m, int d_k, int d_v, float *work) {
    float *qs = work;                             // (BQ, d_k): scaled queries, 0-padded
    float *s = qs + (size_t)TILED_BQ * d_k;       // (BQ, BK): scores, then probabilities
    float *row_max = s + TILED_BQ * TILED_BK;     // (BQ)
    float *row_sum = row_max + TILED_BQ;          // (BQ)
    float *acc = row_sum + TILED_BQ;              // (BQ, d_v): unnormalised output
    const float scale = 1.0f / sqrtf((float)d_k);
    memset(qs, 0, sizeof(float) * (size_t)TILED_BQ * d_k);
    for (int i = 0; i < bq; i++)
        for (int c = 0; c < d_k; c++) qs[(size_t)i * d_k + c] = q[(size_t)i * d_k + c] * scale;
    for (int i = 0; i < TILED_BQ; i++) {
        row_max[i] = -INFINITY;
        row_sum[i] = 0.0f;
    }
    memset(acc, 0, sizeof(float) * (size_t)TILED_BQ * d_v);

    for (int j0 = 0; j0 < m; j0 += TILED_BK) {
        const int bk = m - j0 < TILED_BK ? m - j0 : TILED_BK;
        tile_scores(qs, kt + (size_t)j0 * d_k, s, d_k);
        for (int i = 0; i < bq; i++) {            // the online softmax update
            float *si = s + i * TILED_BK;
            float mx = row_max[i];
            for (int j = 0; j < bk; j++) mx = si[j] > mx ? si[j] : mx;
            const float alpha = exp_nonpositive(row_max[i] - mx);   // rescales the past
            for (int j = 0; j < bk; j++) si[j] = exp_nonpositive(si[j] - mx);
            for (int j = bk; j < TILED_BK; j++) si[j] = 0.0f;      // padding keys
            float part[16] = {0};                 // 16 partial sums: the loop vectorises
            for (int j = 0; j < TILED_BK; j += 16)
                for (int u = 0; u < 16; u++) part[u] += si[j + u];
            float sum = 0.0f;
            for (int u = 0; u < 16; u++) sum += part[u];
            row_sum[i] = row_sum[i] * alpha + sum;
            row_max[i] = mx;
            for (int c = 0; c < d_v; c++) acc[(size_t)i * d_v + c] *= alpha;
        }
        tile_combine(s, v + (size_t)j0 * d_v, acc, bk, d_v);
    }
    for (int i = 0; i < bq; i++) {
        const float inv = 1.0f / row_sum[i];
        for (int c = 0; c < d_v; c++) out[(size_t)i * d_v + c] = acc[(size_t)i * d_v + c] * inv;
    }
}
// end snippet

int tiled_attention_forward(const float *q, const float *k, const float *v, float *out,
                            int h, int n, int m, int d_k, int d_v) {
    if (h < 1 || n < 1 || m < 1 || d_k < 1 || d_v < 1) return -1;
    // Every head's keys, once, in blocks of TILED_BK keys, each block transposed to
    // (d_k, BK) and padded with zeros: the score loop then reads one contiguous
    // tile. As large as k itself (plus padding): O(m) memory.
    const size_t ld = ((size_t)m + TILED_BK - 1) / TILED_BK * TILED_BK;   // padded m
    float *kt = calloc((size_t)h * d_k * ld, sizeof *kt);
    if (!kt) return -1;
    for (int head = 0; head < h; head++)
        for (int j = 0; j < m; j++)
            for (int c = 0; c < d_k; c++)
                kt[(size_t)head * d_k * ld + (size_t)(j / TILED_BK) * d_k * TILED_BK +
                   (size_t)c * TILED_BK + j % TILED_BK] = k[((size_t)head * m + j) * d_k + c];
    const int blocks = (n + TILED_BQ - 1) / TILED_BQ;
    const long tasks = (long)h * blocks;
    int failed = 0;
#ifdef _OPENMP
#pragma omp parallel reduction(| : failed)
#endif
    {
        float *work = malloc(tiled_workspace_bytes(d_k, d_v));
        if (!work) failed = 1;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
        for (long t = 0; t < tasks; t++) {
            if (!work) continue;
            const int head = (int)(t / blocks), i0 = (int)(t % blocks) * TILED_BQ;
            const int bq = n - i0 < TILED_BQ ? n - i0 : TILED_BQ;
            tiled_block(q + ((size_t)head * n + i0) * d_k, kt + (size_t)head * d_k * ld,
                        v + (size_t)head * m * d_v, out + ((size_t)head * n + i0) * d_v, bq,
                        m, d_k, d_v, work);
        }
        free(work);
    }
    free(kt);
    return failed ? -1 : 0;
}
