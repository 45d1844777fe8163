// sinusoidal.c -- the sinusoidal positional encoding and its offset map.
#include "position/sinusoidal.h"

#include <math.h>

double sinusoidal_freq(int i, int d, double base) {
    return pow(base, -2.0 * i / d);
}

// snippet: sinusoidal_table
int sinusoidal_table(float *pe, int n, int d, long pos0, double base) {
    if (n < 0 || d < 0 || pos0 < 0 || !(base > 0.0)) return -1;
    for (int p = 0; p < n; p++) {
        double pos = (double)(pos0 + p);
        for (int c = 0; c < d; c += 2) {          // c = 2i: one sin/cos pair
            double angle = pos * sinusoidal_freq(c / 2, d, base);
            pe[(long)p * d + c] = (float)sin(angle);
            if (c + 1 < d) pe[(long)p * d + c + 1] = (float)cos(angle);
        }
    }
    return 0;
}
// end snippet

// snippet: sinusoidal_offset_matrix
int sinusoidal_offset_matrix(float *m, int d, long k, double base) {
    if (d < 0 || !(base > 0.0)) return -1;
    for (long e = 0; e < (long)d * d; e++) m[e] = 0.0f;
    for (int c = 0; c < d; c += 2) {
        double a = (double)k * sinusoidal_freq(c / 2, d, base);
        m[(long)c * d + c] = (float)cos(a);        // sin(x + a) = sin x cos a
        if (c + 1 == d) break;                     //             + cos x sin a
        m[(long)c * d + c + 1] = (float)sin(a);
        m[(long)(c + 1) * d + c] = (float)-sin(a); // cos(x + a) = cos x cos a
        m[(long)(c + 1) * d + c + 1] = (float)cos(a);  //          - sin x sin a
    }
    return 0;
}
// end snippet
