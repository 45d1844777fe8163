// spectral.c -- power iteration and a bound on the spectral radius.
#include "attention/spectral.h"

#include <math.h>
#include <stdlib.h>

// y (n,) = a x (left == 0) or a^T x (left != 0), in double.
static void apply(const float *a, int n, int left, const double *x, double *y) {
    for (int i = 0; i < n; i++) {
        double acc = 0.0;
        for (int j = 0; j < n; j++)
            acc += (left ? (double)a[j * n + i] : (double)a[i * n + j]) * x[j];
        y[i] = acc;
    }
}

static double norm2(const double *x, int n) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

// snippet: spectral_power_iteration
int spectral_power_iteration(const float *a, int n, int left, double *x, int max_iter,
                    double tol, double *lambda) {
    int used = -1;
    *lambda = 0.0;
    if (n < 1) return 0;                               // an empty matrix: lambda 0
    double nx = norm2(x, n);
    if (!(nx > 0.0) || isinf(nx)) return -2;           // zero, inf or NaN start
    double *y = malloc((size_t)n * sizeof *y);
    if (!y) return -1;
    for (int i = 0; i < n; i++) x[i] /= nx;           // start at unit length
    for (int it = 1; it <= max_iter; it++) {
        apply(a, n, left, x, y);                       // y = A x
        double rayleigh = 0.0;                         // x . A x, with |x| = 1
        for (int i = 0; i < n; i++) rayleigh += x[i] * y[i];
        *lambda = rayleigh;
        double ny = norm2(y, n);
        if (ny == 0.0) { used = it; break; }           // A x = 0: lambda = 0
        double step = 0.0, sign = rayleigh < 0.0 ? -1.0 : 1.0;
        for (int i = 0; i < n; i++) {
            double xi = y[i] / ny;                     // the next unit vector
            step += (xi - sign * x[i]) * (xi - sign * x[i]);
            x[i] = xi;
        }
        if (sqrt(step) < tol) { used = it; break; }
    }
    free(y);
    return used;
}
// end snippet

double spectral_max_abs_row_sum(const float *a, int n) {
    double best = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += fabs((double)a[i * n + j]);
        if (s > best) best = s;
    }
    return best;
}
