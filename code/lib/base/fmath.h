// fmath.h -- tanh for the training loops, three times faster than the C
// library's tanhf.
//
// glibc's tanhf goes through expm1f, which has no fast path: in chapter 8's
// training (a tanh for every query, key and attention unit) it took a third of
// the time. tanh_fast uses expf, which has one, and is exact to a few units in
// the last place (tests/unit/test_fmath.c measures the bound below against
// double-precision tanh). Like every float function here it gives the same bits
// whatever compiles it (-ffp-contract=off).
#ifndef FMATH_H
#define FMATH_H

#include <stddef.h>

// The largest error of tanh_fast against tanh computed in double, relative to
// the true value, over every float (2.41e-7, at x = 0.126274168; test_fmath.c
// checks it).
#define TANH_FAST_REL_ERROR 3e-7

// tanh(x): x itself for |x| < 2^-12, for |x| < 1/8 its Taylor series to x^9,
// above it (1 - t) / (1 + t) with t = exp(-2 |x|); NaN for NaN; +-1 for
// large |x|.
float tanh_fast(float x);

// The same functions over n floats in place: x[i] = expf(x[i]), tanh_fast(x[i]),
// 1 / (1 + expf(-x[i])). Each result has the bits of the one-float function.
// Where the processor has AVX2 and FMA, eight floats at a time by the algorithm
// of glibc's expf for such processors (__expf_fma: a 32-entry table of 2^(i/32)
// and a cubic, in double, with the same fused multiply-adds), so the bits are
// those glibc gives; elsewhere, and for |x| >= 88 or NaN, one at a time by
// expf itself. test_fmath.c compares the two, on floats spread over every
// exponent and on the edges.
void expf_n(float *x, size_t n);
void tanh_fast_n(float *x, size_t n);
void sigmoid_n(float *x, size_t n);

#endif
