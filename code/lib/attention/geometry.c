// geometry.c -- norms, cosine similarities and angles.
#include "attention/geometry.h"

#include <math.h>

#include "base/mat.h"

void geom_row_norms(const float *x, float *norms, int n, int d) {
    for (int i = 0; i < n; i++) norms[i] = (float)mat_norm(x + i * d, d);
}

// snippet: geom_cosine_matrix
void geom_cosine_matrix(const float *q, const float *k, float *cos, int n, int m,
                        int d) {
    for (int i = 0; i < n; i++) {
        const float *qi = q + i * d;
        double qq = mat_dot(qi, qi, d);                       // |q_i|^2
        for (int j = 0; j < m; j++) {
            const float *kj = k + j * d;
            double dot = 0.0, kk = 0.0;
            for (int c = 0; c < d; c++) {
                dot += (double)qi[c] * kj[c];                 // |q| |k| cos(theta)
                kk += (double)kj[c] * kj[c];                  // |k_j|^2
            }
            double len = sqrt(qq * kk);                       // |q_i| |k_j|
            cos[i * m + j] = len > 0.0 ? (float)(dot / len) : 0.0f;
        }
    }
}
// end snippet

double geom_angle_degrees(double c) {
    if (c > 1.0) c = 1.0;
    if (c < -1.0) c = -1.0;
    return acos(c) * (180.0 / 3.14159265358979323846);
}
