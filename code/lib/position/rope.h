// rope.h -- rotary position embedding (RoPE, Su et al. 2021).
//
// A query or key vector x at position pos is split into d/2 pairs
// (x_2i, x_2i+1), and pair i is turned by the angle pos * theta_i,
// theta_i = base^(-2i / d) (base = 10000; i counts from 0 here, from 1 in
// the paper). Rotations keep lengths, and the dot product of a query turned
// by m theta_i with a key turned by n theta_i only sees the difference
// (m - n) theta_i: the score depends on the relative position alone.
#ifndef ROPE_H
#define ROPE_H

enum { ROPE_BASE = 10000 };

// theta (d/2,) <- theta_i = base^(-2i / d). Returns 0; -1 (nothing
// written) if d is odd or negative, or base <= 0.
int rope_theta(float *theta, int d, double base);

// x (n, d) <- row r rotated for position pos0 + r, in place:
//   x'_2i   = x_2i cos(a) - x_2i+1 sin(a)
//   x'_2i+1 = x_2i sin(a) + x_2i+1 cos(a),    a = (pos0 + r) theta_i
// Angles and the rotation in double. Any pos0, also negative (a turn back).
// n == 0 or d == 0 changes nothing. Returns 0; -1 (x unchanged) if d is odd
// or negative, n < 0, or base <= 0.
// (torch: no built-in in 1.13; x.view(n, d//2, 2) as complex numbers times
//  torch.polar(ones, pos[:, None] * theta))
int rope_apply(float *x, int n, int d, long pos0, double base);

// rope_apply with every position multiplied by scale: row r is turned by
// (pos0 + r) scale theta_i. Position interpolation (Chen et al. 2023) runs a
// model trained on L positions at L' > L with scale = L / L', so every angle
// stays inside the trained range; scale = 1 is rope_apply exactly. Sizes and
// base as rope_apply; -1 (x unchanged) also if scale is not finite.
// (torch: as rope_apply, with pos * scale in torch.polar)
int rope_apply_scaled(float *x, int n, int d, long pos0, double scale, double base);

// NTK-aware scaling (bloc97 2023; Peng et al. 2023, eq. for b'): the base that
// stretches the context s times, base s^(d / (d - 2)). Pair 0 keeps its speed
// theta_0 = 1; the slowest pair, i = d/2 - 1, turns exactly s times slower,
// like position interpolation; the pairs between are slowed less, the faster
// the less. -> NaN if d < 4 or odd, base <= 0 or s <= 0 (or NaN).
double rope_ntk_base(double base, int d, double s);

// The longest wavelength, that of the slowest pair i = d/2 - 1:
// 2 pi / theta_{d/2-1} = 2 pi base^((d - 2) / d) positions. A distance the
// model never saw turns this pair further than training did once the
// training length is shorter than this. -> NaN if d < 2 or odd, or base <= 0.
double rope_max_wavelength(int d, double base);

// -> r (d, d), the rotation R_pos with x' = R_pos x (x a column vector):
// block diagonal, block i = [[cos a, -sin a], [sin a, cos a]], a = pos theta_i.
// The naive form of rope_apply (a d x d matrix product per vector).
// Returns 0; -1 (nothing written) if d is odd or negative, or base <= 0.
int rope_matrix(float *r, int d, long pos, double base);

// The long-term decay bound of Su et al. (section 3.4.3): with
// S_j = sum_{i < j} exp(1j * dist * theta_i), returns
// (1 / (d/2)) sum_{j=1}^{d/2} |S_j|, in double. It bounds |q_m . k_n| (up
// to the size of q and k) at distance dist = m - n, and shrinks as |dist|
// grows. 0 if d < 2 or d is odd or base <= 0; at dist = 0 it is (d/2 + 1) / 2.
double rope_decay_bound(int d, long dist, double base);

// x (n, d) <- rope_apply in the "rotate half" layout of GPT-NeoX and Hugging
// Face's LLaMA: pair i is (x_i, x_{i + d/2}), not (x_2i, x_2i+1), turned by the
// same angle a = (pos0 + r) base^(-2i / d):
//   x'_i = x_i cos(a) - x_{i+d/2} sin(a),  x'_{i+d/2} = x_i sin(a) + x_{i+d/2} cos(a).
// It is rope_apply with the columns permuted (2i -> i, 2i + 1 -> i + d/2).
// Sizes, errors and precision as rope_apply.
// (torch: x * cos + rotate_half(x) * sin, as in transformers' LLaMA)
int rope_apply_half(float *x, int n, int d, long pos0, double base);

// q (n, d), k (m, d) unrotated -> scores (n, m): the dot product of query i
// turned for position qpos0 + i with key j turned for kpos0 + j, computed
// without turning either: pair p contributes
//   (q_2p k_2p + q_2p+1 k_2p+1) cos(phi) + (q_2p+1 k_2p - q_2p k_2p+1) sin(phi),
//   phi = ((kpos0 + j) - (qpos0 + i)) theta_p,
// so only the distance enters. Not scaled by 1 / sqrt(d). In double.
// n or m = 0 writes nothing; d = 0 gives scores 0. Returns 0; -1 (scores
// untouched) if n, m or d is negative, d is odd or base <= 0.
// (torch: (rope(q, qpos) @ rope(k, kpos).T))
int rope_scores(const float *q, const float *k, float *scores, int n, int m, int d,
                long qpos0, long kpos0, double base);

#endif
