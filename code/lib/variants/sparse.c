// sparse.c -- attention that computes only the entries its pattern shows.
#include "variants/sparse.h"

#include <math.h>
#include <stdlib.h>

#include "base/mat.h"

// snippet: sparse_visible
int sparse_visible(int i, int j, int window, int stride, int causal) {
    if (causal && j > i) return 0;
    int dist = i > j ? i - j : j - i;
    if (window >= 0 && dist <= window) return 1;      // local band
    return stride > 0 && dist % stride == 0;          // every stride-th diagonal
}
// end snippet

static int pattern_alloc(sparse_pattern_t *p, int n, int m, long nnz) {
    p->n = n, p->m = m, p->nnz = nnz, p->max_row = 0;
    p->start = malloc(((size_t)n + 1) * sizeof(int));
    p->cols = malloc((size_t)(nnz > 0 ? nnz : 1) * sizeof(int));
    if (!p->start || !p->cols) {
        sparse_free(p);
        return -1;
    }
    return 0;
}

// Row i's visible keys, ascending, written to cols (if not NULL): the
// stripes left of the band, the band, the stripes right of it. O(row length).
static int build_row(int *cols, int i, int n, int window, int stride, int causal) {
    long last = causal ? i : n - 1;                    // the last key row i may see
    long lo = window >= 0 ? i - (long)window : 1;      // the band [lo, hi]
    long hi = window >= 0 ? i + (long)window : 0;
    if (lo < 0) lo = 0;
    if (hi > last) hi = last;
    long s = stride > 0 ? i % stride : last + 1;       // first key on a stripe
    int count = 0;
#define EMIT(j) do { if (cols) cols[count] = (int)(j); count++; } while (0)
    for (; s < lo && s <= last; s += stride) EMIT(s);
    for (long j = lo; j <= hi; j++) EMIT(j);
    if (stride > 0) {
        while (s <= hi) s += stride;
        for (; s <= last; s += stride) EMIT(s);
    }
#undef EMIT
    return count;
}

int sparse_build(sparse_pattern_t *p, int n, int window, int stride, int causal) {
    p->start = NULL, p->cols = NULL, p->n = p->m = 0, p->nnz = 0, p->max_row = 0;
    if (n < 0) return -1;
    long nnz = 0;
    for (int i = 0; i < n; i++) nnz += build_row(NULL, i, n, window, stride, causal);
    if (pattern_alloc(p, n, n, nnz) != 0) return -1;
    p->start[0] = 0;
    for (int i = 0; i < n; i++) {
        int len = build_row(p->cols + p->start[i], i, n, window, stride, causal);
        p->start[i + 1] = p->start[i] + len;
        if (len > p->max_row) p->max_row = len;
    }
    return 0;
}

int sparse_from_mask(sparse_pattern_t *p, const unsigned char *mask, int n, int m) {
    p->start = NULL, p->cols = NULL, p->n = p->m = 0, p->nnz = 0, p->max_row = 0;
    if (n < 0 || m < 0) return -1;
    long nnz = 0;
    for (long e = 0; e < (long)n * m; e++) nnz += mask[e] != 0;
    if (pattern_alloc(p, n, m, nnz) != 0) return -1;
    long at = 0;
    p->start[0] = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++)
            if (mask[(long)i * m + j]) p->cols[at++] = j;
        p->start[i + 1] = (int)at;
        if (p->start[i + 1] - p->start[i] > p->max_row)
            p->max_row = p->start[i + 1] - p->start[i];
    }
    return 0;
}

void sparse_to_mask(const sparse_pattern_t *p, unsigned char *mask) {
    for (long e = 0; e < (long)p->n * p->m; e++) mask[e] = 0;
    for (int i = 0; i < p->n; i++)
        for (int e = p->start[i]; e < p->start[i + 1]; e++)
            mask[(long)i * p->m + p->cols[e]] = 1;
}

void sparse_free(sparse_pattern_t *p) {
    free(p->start);
    free(p->cols);
    p->start = NULL, p->cols = NULL, p->n = p->m = 0, p->nnz = 0, p->max_row = 0;
}

size_t sparse_pattern_bytes(const sparse_pattern_t *p) {
    return ((size_t)p->n + 1 + (size_t)p->nnz) * sizeof(int);
}

size_t sparse_work_bytes(const sparse_pattern_t *p) {
    return (size_t)(p->max_row > 0 ? p->max_row : 1) * sizeof(float);
}

// snippet: sparse_forward
int sparse_forward(const float *q, const float *k, const float *v,
                   const sparse_pattern_t *p, float *out, int d_k, int d_v) {
    if (d_k < 0 || d_v < 0) return -1;
    float *s = malloc(sparse_work_bytes(p));      // one row of visible scores
    if (!s) return -1;
    float scale = 1.0f / sqrtf((float)d_k);
    for (int i = 0; i < p->n; i++) {
        const int *cols = p->cols + p->start[i];
        int len = p->start[i + 1] - p->start[i];
        float max = -INFINITY;
        for (int e = 0; e < len; e++) {           // scores of the visible keys only
            const float *k_j = k + (long)cols[e] * d_k;
            s[e] = (float)mat_dot(q + (long)i * d_k, k_j, d_k) * scale;
            if (s[e] > max) max = s[e];
        }
        double sum = 0.0;
        for (int e = 0; e < len; e++) {
            s[e] = expf(s[e] - max);
            sum += s[e];
        }
        for (int c = 0; c < d_v; c++) {           // mix the visible values only
            double acc = 0.0;
            for (int e = 0; e < len; e++)
                acc += (double)s[e] * v[(long)cols[e] * d_v + c];
            out[(long)i * d_v + c] = len > 0 ? (float)(acc / sum) : 0.0f;
        }
    }
    free(s);
    return 0;
}
// end snippet
