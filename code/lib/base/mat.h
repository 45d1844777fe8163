// mat.h -- the few dense matrix operations every chapter needs.
//
// All matrices are row-major float buffers owned by the caller; element (i, j)
// of an (n, m) matrix lives at a[i * m + j]. Outputs never alias inputs unless
// a comment says so.
//
// Edges: a size of 0 (or below) writes nothing, except that an inner size
// k = 0 makes every entry of the product 0; mat_dot and mat_norm of empty
// vectors are 0.
#ifndef MAT_H
#define MAT_H

#include <stddef.h>

// a (n, k), b (k, m) -> c (n, m) = a b          (torch: a @ b)
void mat_mul(const float *a, const float *b, float *c, int n, int k, int m);

// a (n, k), b (m, k) -> c (n, m) = a b^T        (torch: a @ b.T)
void mat_mul_bt(const float *a, const float *b, float *c, int n, int k, int m);

// a (n, m) -> t (m, n) = a^T
void mat_transpose(const float *a, float *t, int n, int m);

// x (n,) <- x * s, in place
void mat_scale(float *x, int n, float s);

// y (n,) <- y + x, in place
void mat_add(float *y, const float *x, int n);

// x (n, m) += b (m,) on every row: adds a bias vector, in place
void mat_add_row(float *x, const float *b, int n, int m);

// Dot product of two length-n vectors, accumulated in double.
double mat_dot(const float *a, const float *b, int n);

// Euclidean norm of a length-n vector.
double mat_norm(const float *a, int n);

// a (size,), b (size,) -> max |a[i] - b[i]| in double; 0 for size 0, and NaN
// if any difference is NaN (so a check on it fails).
// (torch: (a - b).abs().max())
double mat_max_abs_diff(const float *a, const float *b, size_t size);

// a (size,), b (size,) -> sum of (a[i] - b[i])^2, accumulated in double; 0 for
// size 0. Divide by size for the mean squared error, take the square root for
// the Euclidean distance.   (torch: ((a - b) ** 2).sum())
double mat_sq_dist(const float *a, const float *b, size_t size);

#endif
