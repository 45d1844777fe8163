// geometry.h -- lengths and angles of query and key vectors.
//
// Edges: n or m = 0 writes nothing; d = 0 gives norms 0 and cosines 0.
//
// The dot product splits into length and direction: q . k = |q| |k| cos(theta).
#ifndef GEOMETRY_H
#define GEOMETRY_H

// x (n, d) -> norms (n,): the Euclidean length of every row.
// (torch: x.norm(dim=-1))
void geom_row_norms(const float *x, float *norms, int n, int d);

// q (n, d), k (m, d) -> cos (n, m): cosine of the angle between q_i and k_j;
// 0 where either vector is zero.
// (torch: F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).T)
void geom_cosine_matrix(const float *q, const float *k, float *cos, int n, int m,
                        int d);

// cosine c -> the angle in degrees, in [0, 180]. c is clamped to [-1, 1]
// first, so rounding (c = 1.0000001) cannot produce NaN; c = NaN gives NaN.
double geom_angle_degrees(double c);

#endif
