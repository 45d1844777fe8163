// attn_stats.c -- summary numbers for attention matrices.
#include "attention/attn_stats.h"

#include <math.h>
#include <stdlib.h>

// snippet: attn_row_entropy
double attn_row_entropy(const float *row, int m) {
    double h = 0.0;
    for (int j = 0; j < m; j++)
        if (row[j] > 0.0f) h -= (double)row[j] * log((double)row[j]);
    return h;
}
// end snippet

double attn_mean_entropy(const float *w, int n, int m) {
    if (n < 1) return 0.0;
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += attn_row_entropy(w + (size_t)i * m, m);
    return sum / n;
}

double attn_row_sum_error(const float *w, int n, int m) {
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++) s += w[(size_t)i * m + j];
        if (fabs(s - 1.0) > worst) worst = fabs(s - 1.0);
    }
    return worst;
}

// The number of entries of an (n, m) matrix; 0 if either size is below 1.
static size_t entries(int n, int m) {
    return n < 1 || m < 1 ? 0 : (size_t)n * (size_t)m;
}

double attn_max_weight(const float *w, int n, int m) {
    size_t size = entries(n, m);
    if (size == 0) return 0.0;
    double best = w[0];
    for (size_t i = 1; i < size; i++)
        if (w[i] > best) best = w[i];
    return best;
}

double attn_min_weight(const float *w, int n, int m) {
    size_t size = entries(n, m);
    if (size == 0) return 0.0;
    double least = w[0];
    for (size_t i = 1; i < size; i++)
        if (w[i] < least) least = w[i];
    return least;
}

double attn_diag_strength(const float *w, int n) {
    if (n < 1) return 0.0;
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += w[(size_t)i * n + i];
    return sum / n;
}

double attn_locality(const float *w, int n, int m, int radius) {
    if (n < 1) return 0.0;
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (abs(i - j) <= radius) sum += w[(size_t)i * m + j];
    return sum / n;
}

double attn_sparsity(const float *w, int n, int m, float threshold) {
    size_t size = entries(n, m), below = 0;
    if (size == 0) return 0.0;
    for (size_t i = 0; i < size; i++)
        if (w[i] < threshold) below++;
    return (double)below / (double)size;
}
