// stats.h -- summary statistics and histograms of a buffer of numbers.
#ifndef STATS_H
#define STATS_H

typedef struct {
    double mean;   // arithmetic mean
    double std;    // population standard deviation (divides by n)
    double min;
    double max;
} stats_t;

// x (n,), n >= 1 -> mean, std, min, max, accumulated in double.
// (torch: x.mean(), x.std(unbiased=False), x.min(), x.max())
stats_t stats_of(const float *x, int n);

// x (n,) -> counts (bins,): how many x fall in each of bins equal-width bins
// covering [lo, hi]; the last bin includes hi. Values outside are not counted.
// Returns the number of values counted.   (torch: torch.histc(x, bins, lo, hi))
int stats_histogram(const float *x, int n, double lo, double hi, int bins, int *counts);

#endif
