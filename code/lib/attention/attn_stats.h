// attn_stats.h -- measuring an attention matrix.
//
// Every function reads w (n, m): a row-stochastic matrix of attention weights,
// row i = how query i spreads its attention over the m keys.
//
// Edges: every function returns a number, never NaN for finite weights. An
// empty matrix (n or m = 0, or below) gives 0 for every mean, max, min,
// fraction and entropy; a row with m = 0 sums to 0 (row-sum error 1).
#ifndef ATTN_STATS_H
#define ATTN_STATS_H

// row (m,) -> Shannon entropy H = -sum p log p, in nats (0 log 0 = 0).
double attn_row_entropy(const float *row, int m);

// w (n, m) -> mean over rows of attn_row_entropy.
double attn_mean_entropy(const float *w, int n, int m);

// w (n, m) -> largest |row sum - 1| (0 for a perfect row-stochastic matrix).
double attn_row_sum_error(const float *w, int n, int m);

// w (n, m) -> largest single weight.
double attn_max_weight(const float *w, int n, int m);

// w (n, m) -> smallest single weight (>= 0 for attention weights).
double attn_min_weight(const float *w, int n, int m);

// w (n, n) -> mean of the diagonal, mean_i w[i][i]: how much tokens attend
// to themselves.
double attn_diag_strength(const float *w, int n);

// w (n, m) -> mean over rows of the weight within distance radius of the
// diagonal, sum_{|i-j| <= radius} w[i][j].
double attn_locality(const float *w, int n, int m, int radius);

// w (n, m) -> fraction of weights below threshold.
double attn_sparsity(const float *w, int n, int m, float threshold);

#endif
