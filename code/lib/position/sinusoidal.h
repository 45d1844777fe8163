// sinusoidal.h -- the fixed sinusoidal positional encoding of Vaswani et al.
//
//   PE(pos, 2i)     = sin(pos / base^(2i / d))
//   PE(pos, 2i + 1) = cos(pos / base^(2i / d))        (base = 10000 in the paper)
//
// Column pair (2i, 2i + 1) is a point on the unit circle turning at angular
// speed w_i = base^(-2i / d) radians per position. Moving k positions on
// turns every pair by k w_i: a rotation that does not depend on pos.
#ifndef SINUSOIDAL_H
#define SINUSOIDAL_H

enum { SINUSOIDAL_BASE = 10000 };

// Angular speed of column pair i: w_i = base^(-2i / d), in double. Any i;
// d must be >= 1 (d == 0 gives NaN).
double sinusoidal_freq(int i, int d, double base);

// -> pe (n, d), row p = PE(pos0 + p). Computed in double, stored as float.
// d odd: the last column is a sine without its cosine partner. n == 0 or
// d == 0 writes nothing. Returns 0, or -1 (nothing written) if n < 0, d < 0,
// pos0 < 0 or base <= 0.
// (torch: no built-in; pos = torch.arange(pos0, pos0 + n)[:, None];
//  w = base ** (-torch.arange(0, d, 2) / d); pe[:, 0::2] = sin(pos w),
//  pe[:, 1::2] = cos(pos w))
int sinusoidal_table(float *pe, int n, int d, long pos0, double base);

// -> m (d, d), the offset-k map: PE(pos + k) = m PE(pos) for every pos, with
// PE as a column vector. Block diagonal; block i acts on columns (2i, 2i + 1):
//   [ cos(k w_i)   sin(k w_i) ]
//   [-sin(k w_i)   cos(k w_i) ]
// a rotation by -k w_i. d odd: the last diagonal entry is cos(k w), and the
// identity then holds only for the paired columns. k may be negative.
// Returns 0, or -1 (nothing written) if d < 0 or base <= 0.
int sinusoidal_offset_matrix(float *m, int d, long k, double base);

#endif
