// stats.h -- summary statistics and histograms of a buffer of numbers.
#ifndef STATS_H
#define STATS_H

typedef struct {
    double mean;   // arithmetic mean
    double std;    // population standard deviation (divides by n)
    double min;
    double max;
} stats_t;

// x (n,) -> mean, std, min, max, accumulated in double.
// n = 0 (or below): all four are 0, never NaN; n = 1: std 0, min = max = x[0].
// (torch: x.mean(), x.std(unbiased=False), x.min(), x.max(); torch gives NaN
//  for an empty x)
stats_t stats_of(const float *x, int n);

// x (n,) -> counts (bins,): how many x fall in each of bins equal-width bins
// covering [lo, hi]; the last bin includes hi. Values outside are not counted.
// Returns the number of values counted (0 for n = 0); or -1, counts untouched,
// if bins < 1, lo >= hi, or lo or hi is not finite. NaN values are not counted.
// (torch: torch.histc(x, bins, min=lo, max=hi), for lo < hi; torch.histc with
//  min == max uses the data's own min and max instead)
int stats_histogram(const float *x, int n, double lo, double hi, int bins, int *counts);

#endif
