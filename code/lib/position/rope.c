// rope.c -- rotary position embedding: angles, rotation, matrix, decay bound.
#include "position/rope.h"

#include <complex.h>
#include <math.h>

static const double PI = 3.14159265358979323846;

int rope_theta(float *theta, int d, double base) {
    if (d < 0 || d % 2 != 0 || !(base > 0.0)) return -1;
    for (int i = 0; i < d / 2; i++) theta[i] = (float)pow(base, -2.0 * i / d);
    return 0;
}

// snippet: rope_apply
int rope_apply(float *x, int n, int d, long pos0, double base) {
    if (n < 0 || d < 0 || d % 2 != 0 || !(base > 0.0)) return -1;
    for (int r = 0; r < n; r++) {
        float *row = x + (long)r * d;
        for (int i = 0; i < d / 2; i++) {
            double a = (double)(pos0 + r) * pow(base, -2.0 * i / d);
            double c = cos(a), s = sin(a);
            double x0 = row[2 * i], x1 = row[2 * i + 1];
            row[2 * i] = (float)(x0 * c - x1 * s);      // turn the pair
            row[2 * i + 1] = (float)(x0 * s + x1 * c);  // by the angle a
        }
    }
    return 0;
}
// end snippet

// snippet: rope_apply_scaled
int rope_apply_scaled(float *x, int n, int d, long pos0, double scale, double base) {
    if (n < 0 || d < 0 || d % 2 != 0 || !(base > 0.0) || !isfinite(scale)) return -1;
    for (int r = 0; r < n; r++) {
        float *row = x + (long)r * d;
        double pos = (double)(pos0 + r) * scale;      // interpolated position
        for (int i = 0; i < d / 2; i++) {
            double a = pos * pow(base, -2.0 * i / d);
            double c = cos(a), s = sin(a);
            double x0 = row[2 * i], x1 = row[2 * i + 1];
            row[2 * i] = (float)(x0 * c - x1 * s);
            row[2 * i + 1] = (float)(x0 * s + x1 * c);
        }
    }
    return 0;
}

double rope_ntk_base(double base, int d, double s) {
    if (d < 4 || d % 2 != 0 || !(base > 0.0) || !(s > 0.0)) return NAN;
    return base * pow(s, (double)d / (d - 2));     // theta_{d/2-1} becomes theta / s
}
// end snippet

double rope_max_wavelength(int d, double base) {
    if (d < 2 || d % 2 != 0 || !(base > 0.0)) return NAN;
    return 2.0 * PI * pow(base, (double)(d - 2) / d);
}

int rope_matrix(float *r, int d, long pos, double base) {
    if (d < 0 || d % 2 != 0 || !(base > 0.0)) return -1;
    for (long e = 0; e < (long)d * d; e++) r[e] = 0.0f;
    for (int i = 0; i < d / 2; i++) {
        double a = (double)pos * pow(base, -2.0 * i / d);
        int c = 2 * i;
        r[(long)c * d + c] = (float)cos(a);
        r[(long)c * d + c + 1] = (float)-sin(a);
        r[(long)(c + 1) * d + c] = (float)sin(a);
        r[(long)(c + 1) * d + c + 1] = (float)cos(a);
    }
    return 0;
}

// snippet: rope_decay_bound
double rope_decay_bound(int d, long dist, double base) {
    if (d < 2 || d % 2 != 0 || !(base > 0.0)) return 0.0;
    double complex s = 0.0;   // S_j, the partial sums of exp(i dist theta)
    double total = 0.0;
    for (int i = 0; i < d / 2; i++) {
        s += cexp(I * (double)dist * pow(base, -2.0 * i / d));
        total += cabs(s);
    }
    return total / (d / 2);
}
// end snippet

int rope_apply_half(float *x, int n, int d, long pos0, double base) {
    if (n < 0 || d < 0 || d % 2 != 0 || !(base > 0.0)) return -1;
    int h = d / 2;
    for (int r = 0; r < n; r++) {
        float *row = x + (long)r * d;
        // BEGIN SOLUTION
        for (int i = 0; i < h; i++) {
            double a = (double)(pos0 + r) * pow(base, -2.0 * i / d);
            double c = cos(a), s = sin(a);
            double x0 = row[i], x1 = row[i + h];
            row[i] = (float)(x0 * c - x1 * s);
            row[i + h] = (float)(x0 * s + x1 * c);
        }
        // END SOLUTION
    }
    return 0;
}

int rope_scores(const float *q, const float *k, float *scores, int n, int m, int d,
                long qpos0, long kpos0, double base) {
    if (n < 0 || m < 0 || d < 0 || d % 2 != 0 || !(base > 0.0)) return -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            const float *qi = q + (long)i * d, *kj = k + (long)j * d;
            double s = 0.0;
            // BEGIN SOLUTION
            double dist = (double)((kpos0 + j) - (qpos0 + i));
            for (int p = 0; p < d / 2; p++) {
                double phi = dist * pow(base, -2.0 * p / d);
                double q0 = qi[2 * p], q1 = qi[2 * p + 1];
                double k0 = kj[2 * p], k1 = kj[2 * p + 1];
                s += (q0 * k0 + q1 * k1) * cos(phi) + (q1 * k0 - q0 * k1) * sin(phi);
            }
            // END SOLUTION
            scores[(long)i * m + j] = (float)s;
        }
    return 0;
}
