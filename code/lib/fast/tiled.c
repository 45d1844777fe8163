// tiled.c -- exact attention over cache-sized tiles (see tiled.h).
#include "fast/tiled.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fast/tile_mm.h"

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


float tiled_exp2(float t) {
    return tile_exp2(t > TILED_LAZY ? TILED_LAZY : t);
}

size_t tiled_workspace_bytes(int d_k, int d_v) {
    // scaled query block (BQ, d_k), scores and weights (BQ, BK) each, reference,
    // sum and rescale factors (BQ), output accumulator (BQ, d_v).
    return sizeof(float) * ((size_t)TILED_BQ * d_k + 2 * (size_t)TILED_BQ * TILED_BK +
                            3 * (size_t)TILED_BQ + (size_t)TILED_BQ * d_v);
}

// snippet: tiled_row_exps
// One row of TILED_BK scores s -> weights p = 2^((s - ref) log2 e), each at most
// 2^TILED_LAZY (a larger one is capped there, and the caller computes the row
// again). *sum gets the sum of p; returns the largest of ref and the scores.
// 16 partial maxima and sums: fixed-length loops that vectorise.
static inline float row_exps(const float *s, float *p, float ref, float *sum) {
    const float log2e = 1.4426950409f;
    float part_max[16], part_sum[16] = {0};
    for (int u = 0; u < 16; u++) part_max[u] = ref;
    for (int j = 0; j < TILED_BK; j += 16)
        for (int u = 0; u < 16; u++) {
            const float x = s[j + u], t = (x - ref) * log2e;
            part_max[u] = x > part_max[u] ? x : part_max[u];
            p[j + u] = tile_exp2(t > TILED_LAZY ? TILED_LAZY : t);   // NaN stays
            part_sum[u] += p[j + u];
        }
    float mx = part_max[0], total = part_sum[0];
    for (int u = 1; u < 16; u++) {
        mx = part_max[u] > mx ? part_max[u] : mx;
        total += part_sum[u];
    }
    *sum = total;
    return mx;
}
// end snippet

// One block of bq <= TILED_BQ queries, rows i0 .. i0 + bq - 1 of one head (sizes in
// *sh, h unused), against the keys they see (all m, or j <= i when causal). kt holds
// the head's keys block by block, each block transposed: (blocks, d_k, BK). lse (bq)
// or NULL: each row's log-sum-exp of its scaled scores (natural log), for the
// backward.
// snippet: tiled_block
static void tiled_block(const float *q, const float *kt, const float *v, float *out,
                        float *lse, int i0, int bq, const tiled_shape_t *sh,
                        float *work) {
    const int m = sh->m, d_k = sh->d_k, d_v = sh->d_v, causal = sh->causal;
    float *qs = work;                             // (BQ, d_k): scaled queries, 0-padded
    float *s = qs + (size_t)TILED_BQ * d_k;       // (BQ, BK): scores
    float *p = s + TILED_BQ * TILED_BK;           // (BQ, BK): weights
    float *row_ref = p + TILED_BQ * TILED_BK;     // (BQ): the exps' reference
    float *row_sum = row_ref + TILED_BQ;          // (BQ)
    float *alpha = row_sum + TILED_BQ;            // (BQ): rescales the past
    float *acc = alpha + TILED_BQ;                // (BQ, d_v): unnormalised output
    const float scale = 1.0f / sqrtf((float)d_k), log2e = 1.4426950409f;
    memset(qs, 0, sizeof(float) * (size_t)TILED_BQ * d_k);
    for (int i = 0; i < bq; i++)
        for (int c = 0; c < d_k; c++)
            qs[(size_t)i * d_k + c] = q[(size_t)i * d_k + c] * scale;
    for (int i = 0; i < TILED_BQ; i++) {
        row_ref[i] = -INFINITY;
        row_sum[i] = 0.0f;
    }
    memset(acc, 0, sizeof(float) * (size_t)TILED_BQ * d_v);
    // causal: row i0 + i sees keys j <= i0 + i, so no tile past the block's last row
    const int m_seen = causal && i0 + bq < m ? i0 + bq : m;

    for (int j0 = 0; j0 < m_seen; j0 += TILED_BK) {
        const int bk = m_seen - j0 < TILED_BK ? m_seen - j0 : TILED_BK;
        tile_mm(s, qs, kt + (size_t)j0 * d_k, TILED_BQ, d_k, TILED_BK, d_k, TILED_BK,
                TILED_BK, 0);                     // s = qs kt_block
        const int diagonal = causal && j0 + bk - 1 > i0;   // some keys hidden here
        int rescale = 0;
        for (int i = 0; i < TILED_BQ; i++) {      // the online softmax update
            float *si = s + i * TILED_BK, *pi = p + i * TILED_BK;
            if (diagonal)                         // hidden keys, and padding
                for (int j = 0; j < bk; j++)
                    si[j] = j0 + j > i0 + i ? -INFINITY : si[j];
            for (int j = bk; j < TILED_BK; j++) si[j] = -INFINITY;
            // exps against the row's reference, in the same pass as its maximum;
            // again against the maximum if that passed the reference by more than
            // TILED_LAZY (every row's first tile: its reference is -inf, and key 0,
            // visible to every row, makes the maximum finite)
            float ref = row_ref[i], sum;
            const float mx = row_exps(si, pi, ref, &sum);
            if ((mx - ref) * log2e > TILED_LAZY) {
                ref = mx;
                row_exps(si, pi, ref, &sum);
            }
            alpha[i] = tile_exp2((row_ref[i] - ref) * log2e);   // 1 if ref stayed
            row_sum[i] = row_sum[i] * alpha[i] + sum;
            row_ref[i] = ref;
            rescale |= alpha[i] != 1.0f;
        }
        if (rescale)
            for (int i = 0; i < TILED_BQ; i++)
                for (int c = 0; c < d_v; c++) acc[(size_t)i * d_v + c] *= alpha[i];
        tile_mm(acc, p, v + (size_t)j0 * d_v, TILED_BQ, bk, d_v, TILED_BK, d_v, d_v, 1);
    }
    for (int i = 0; i < bq; i++) {
        const float inv = 1.0f / row_sum[i];
        for (int c = 0; c < d_v; c++)
            out[(size_t)i * d_v + c] = acc[(size_t)i * d_v + c] * inv;
        if (lse) lse[i] = row_ref[i] + logf(row_sum[i]);
    }
}
// end snippet

int tiled_attention(const float *q, const float *k, const float *v, float *out,
                    float *lse, const tiled_shape_t *shape) {
    const int h = shape->h, n = shape->n, m = shape->m, d_k = shape->d_k;
    const int d_v = shape->d_v, causal = shape->causal;
    if (h < 1 || n < 1 || m < 1 || d_k < 1 || d_v < 1) return -1;
    // Every head's keys, once, in blocks of TILED_BK keys, each block transposed to
    // (d_k, BK) and padded with zeros: the score loop then reads one contiguous
    // tile. As large as k itself (plus padding): O(m) memory.
    const size_t ld = ((size_t)m + TILED_BK - 1) / TILED_BK * TILED_BK;   // padded m
    float *kt = calloc((size_t)h * d_k * ld, sizeof *kt);
    if (!kt) return -1;
    // One task per block of keys, shared among threads (done by one, the copy is a
    // twentieth of the work at d = 128 that a second thread cannot halve). It goes
    // 16 columns of k at a time, so the 16 rows of the block it writes stay in L1
    // (row by row, all d_k of them did not: 18% of the time at n = 256).
    const long kblocks = (long)(ld / TILED_BK);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (long hb = 0; hb < (long)h * kblocks; hb++) {
        const int head = (int)(hb / kblocks), j0 = (int)(hb % kblocks) * TILED_BK;
        const int bk = m - j0 < TILED_BK ? m - j0 : TILED_BK;
        float *dst = kt + (size_t)head * d_k * ld + (size_t)j0 * d_k;   // (d_k, BK)
        const float *src = k + ((size_t)head * m + j0) * d_k;           // (bk, d_k)
        for (int c0 = 0; c0 < d_k; c0 += 16) {
            const int c1 = d_k - c0 < 16 ? d_k : c0 + 16;
            for (int j = 0; j < bk; j++)
                for (int c = c0; c < c1; c++)
                    dst[(size_t)c * TILED_BK + j] = src[(size_t)j * d_k + c];
        }
    }
    const int blocks = (n + TILED_BQ - 1) / TILED_BQ;
    const long tasks = (long)h * blocks;
    int failed = 0;
#ifdef _OPENMP
#pragma omp parallel reduction(| : failed)
#endif
    {
        float *work = malloc(tiled_workspace_bytes(d_k, d_v));
        if (!work) failed = 1;
        // causal blocks differ in cost (the last rows see the most keys): hand them
        // out one at a time, last (dearest) first
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (long t = 0; t < tasks; t++) {
            if (!work) continue;
            const long tt = causal ? tasks - 1 - t : t;
            const int head = (int)(tt / blocks), i0 = (int)(tt % blocks) * TILED_BQ;
            const int bq = n - i0 < TILED_BQ ? n - i0 : TILED_BQ;
            tiled_block(q + ((size_t)head * n + i0) * d_k, kt + (size_t)head * d_k * ld,
                        v + (size_t)head * m * d_v, out + ((size_t)head * n + i0) * d_v,
                        lse ? lse + (size_t)head * n + i0 : NULL, i0, bq, shape, work);
        }
        free(work);
    }
    free(kt);
    return failed ? -1 : 0;
}

int tiled_attention_forward(const float *q, const float *k, const float *v, float *out,
                            int h, int n, int m, int d_k, int d_v) {
    const tiled_shape_t shape = {h, n, m, d_k, d_v, 0};
    return tiled_attention(q, k, v, out, NULL, &shape);
}

int tiled_attention_causal(const float *q, const float *k, const float *v, float *out,
                           int h, int n, int m, int d_k, int d_v) {
    const tiled_shape_t shape = {h, n, m, d_k, d_v, 1};
    return tiled_attention(q, k, v, out, NULL, &shape);
}
