// tmat.h -- the three matrix products that training needs, accumulating.
//
// A forward pass y = x w and its two backward products. All three add into
// their output (+=), so a weight used at every time step collects its
// gradient from every step; the caller zeroes gradients once per batch.
// Loops are ordered so the innermost one runs along contiguous memory (the
// compiler vectorises it); sums are in float, in a fixed order, so results are
// the same on every run.
//
// n = rows (batch x time), k = inner width, m = output width.
#ifndef TMAT_H
#define TMAT_H

// x (n, k), w (k, m) -> y (n, m) += x w        (torch: y += x @ w)
// n, k or m = 0: nothing happens.
void tmat_mul_acc(const float *x, const float *w, float *y, int n, int k, int m);

// dy (n, m), w (k, m) -> dx (n, k) += dy w^T   (torch: dx += dy @ w.T)
void tmat_mul_bt_acc(const float *dy, const float *w, float *dx, int n, int k, int m);

// x (n, k), dy (n, m) -> dw (k, m) += x^T dy   (torch: dw += x.T @ dy)
void tmat_at_mul_acc(const float *x, const float *dy, float *dw, int n, int k, int m);

// b (m,) -> y (n, m): every row of y set to b (b NULL: zeros).
void tmat_set_rows(float *y, const float *b, int n, int m);

// dy (n, m) -> db (m,) += the sum of the rows of dy.
void tmat_sum_rows_acc(const float *dy, float *db, int n, int m);

#endif
