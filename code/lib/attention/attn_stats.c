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
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += attn_row_entropy(w + i * m, m);
    return sum / n;
}

double attn_row_sum_error(const float *w, int n, int m) {
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++) s += w[i * m + j];
        if (fabs(s - 1.0) > worst) worst = fabs(s - 1.0);
    }
    return worst;
}

double attn_max_weight(const float *w, int n, int m) {
    double best = w[0];
    for (int i = 1; i < n * m; i++)
        if (w[i] > best) best = w[i];
    return best;
}

double attn_min_weight(const float *w, int n, int m) {
    double least = w[0];
    for (int i = 1; i < n * m; i++)
        if (w[i] < least) least = w[i];
    return least;
}

double attn_diag_strength(const float *w, int n) {
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += w[i * n + i];
    return sum / n;
}

double attn_locality(const float *w, int n, int m, int radius) {
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (abs(i - j) <= radius) sum += w[i * m + j];
    return sum / n;
}

double attn_sparsity(const float *w, int n, int m, float threshold) {
    int below = 0;
    for (int i = 0; i < n * m; i++)
        if (w[i] < threshold) below++;
    return (double)below / (n * m);
}
