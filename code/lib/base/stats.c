// stats.c -- mean, standard deviation, extremes and histograms.
#include "base/stats.h"

#include <math.h>

// snippet: stats_of
stats_t stats_of(const float *x, int n) {
    stats_t s = {0.0, 0.0, 0.0, 0.0};
    if (n < 1) return s;                  // nothing to summarise: all zero
    s.min = s.max = x[0];
    for (int i = 0; i < n; i++) {
        s.mean += x[i];
        if (x[i] < s.min) s.min = x[i];
        if (x[i] > s.max) s.max = x[i];
    }
    s.mean /= n;
    double ss = 0.0;                  // second pass: exact even when |mean| >> std
    for (int i = 0; i < n; i++) ss += (x[i] - s.mean) * (x[i] - s.mean);
    s.std = sqrt(ss / n);
    return s;
}
// end snippet

int stats_histogram(const float *x, int n, double lo, double hi, int bins,
                    int *counts) {
    if (bins < 1 || !(lo < hi) || !isfinite(lo) || !isfinite(hi)) return -1;
    int counted = 0;
    for (int b = 0; b < bins; b++) counts[b] = 0;
    for (int i = 0; i < n; i++) {
        if (!(x[i] >= lo && x[i] <= hi)) continue;   // also skips NaN
        int b = (int)((x[i] - lo) / (hi - lo) * bins);   // (hi - lo) > 0, may be inf
        if (b == bins) b = bins - 1;                 // x == hi
        counts[b]++;
        counted++;
    }
    return counted;
}
