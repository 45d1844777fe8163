// spectral.h -- the largest eigenvalue of a square matrix by power iteration.
//
// For an attention matrix (non-negative, rows summing to 1) the answer is
// always 1: that is the Perron-Frobenius theorem, checked numerically.
#ifndef SPECTRAL_H
#define SPECTRAL_H

// a (n, n), x (n,) a non-zero start vector -> the dominant eigenvalue lambda
// (the one of largest |lambda|) of a, or of a^T when left != 0:
//   left == 0:  a x = lambda x   (right eigenvector)
//   left != 0:  x a = lambda x   (left eigenvector, e.g. a stationary distribution)
// On return x holds the eigenvector scaled to unit length. Stops when x moves
// less than tol (in Euclidean length) in one step. Returns the iterations
// used, or -1 if max_iter ran out first (lambda then holds the last estimate;
// max_iter < 1: lambda 0). n = 0: returns 0, lambda 0. Returns -2 (x untouched,
// lambda 0) if x is all zeros or not finite.
// Needs a single real dominant eigenvalue; the speed is |lambda_2 / lambda|.
// (torch: torch.linalg.eigvals(a).abs().max() for |lambda|)
int spectral_power_iteration(const float *a, int n, int left, double *x, int max_iter,
                    double tol, double *lambda);

// a (n, n) -> max_i sum_j |a_ij|, the largest absolute row sum. No eigenvalue
// of a is larger than this in absolute value (it is the infinity norm).
// n = 0: 0.
double spectral_max_abs_row_sum(const float *a, int n);

#endif
