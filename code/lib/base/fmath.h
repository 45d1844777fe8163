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

// The largest error of tanh_fast against tanh computed in double, relative to
// the true value, over every float (2.41e-7, at x = 0.126274168; test_fmath.c
// checks it).
#define TANH_FAST_REL_ERROR 3e-7

// tanh(x): x itself for |x| < 2^-12, for |x| < 1/8 its Taylor series to x^9,
// above it (1 - t) / (1 + t) with t = exp(-2 |x|); NaN for NaN; +-1 for
// large |x|.
float tanh_fast(float x);

#endif
