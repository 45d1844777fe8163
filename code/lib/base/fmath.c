// fmath.c -- tanh for the training loops (see fmath.h).
#include "base/fmath.h"

#include <math.h>

float tanh_fast(float x) {
    float a = fabsf(x);
    if (a < 0x1p-12f) return x;         // x^3/3 is under half a unit of x: keeps -0
    if (a < 0.125f) {                   // x - x^3/3 + 2x^5/15 - 17x^7/315 + 62x^9/2835
        float x2 = x * x;
        float p = 62.0f / 2835.0f;
        p = p * x2 - 17.0f / 315.0f;
        p = p * x2 + 2.0f / 15.0f;
        p = p * x2 - 1.0f / 3.0f;
        return x + x * x2 * p;
    }
    float t = expf(-2.0f * a);          // in (0, 0.78]: no cancellation below
    return copysignf((1.0f - t) / (1.0f + t), x);
}

static float sigmoid1(float x) { return 1.0f / (1.0f + expf(-x)); }

static void expf_n1(float *x, size_t n) {
    for (size_t i = 0; i < n; i++) x[i] = expf(x[i]);
}
static void tanh_fast_n1(float *x, size_t n) {
    for (size_t i = 0; i < n; i++) x[i] = tanh_fast(x[i]);
}
static void sigmoid_n1(float *x, size_t n) {
    for (size_t i = 0; i < n; i++) x[i] = sigmoid1(x[i]);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#include <stdint.h>

// glibc 2.36's expf for processors with FMA (sysdeps/ieee754/flt-32/e_expf.c
// built with -mfma; its constants and the order of its operations read from
// Debian 12's libm.so.6): exp(x) = 2^(k/32) 2^(r/32) with x 32/ln 2 = k + r.
static const uint64_t EXP2_TAB[32] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};
#define VEXP __attribute__((target("avx2,fma")))

// four floats widened to double: their exp, before the rounding to float
VEXP static __m256d exp4(__m128 xf) {
    const __m256d invln2n = _mm256_set1_pd(0x1.71547652b82fep+5);
    const __m256d shift = _mm256_set1_pd(0x1.8p+52);
    __m256d xd = _mm256_cvtps_pd(xf);
    __m256d kds = _mm256_fmadd_pd(invln2n, xd, shift);      // k + 1.5 2^52
    __m256i ki = _mm256_castpd_si256(kds);
    __m256d kd = _mm256_sub_pd(kds, shift);
    __m256d r = _mm256_fmsub_pd(invln2n, xd, kd);           // x 32/ln 2 - k
    __m256i i = _mm256_and_si256(ki, _mm256_set1_epi64x(31));
    __m256i t = _mm256_i64gather_epi64((const long long *)EXP2_TAB, i, 8);
    t = _mm256_add_epi64(t, _mm256_slli_epi64(ki, 47));    // 2^(k/32)
    __m256d z = _mm256_fmadd_pd(r, _mm256_set1_pd(0x1.c6af84b912394p-20),
                                _mm256_set1_pd(0x1.ebfce50fac4f3p-13));
    __m256d r2 = _mm256_mul_pd(r, r);
    __m256d y = _mm256_fmadd_pd(r, _mm256_set1_pd(0x1.62e42ff0c52d6p-6),
                                _mm256_set1_pd(1.0));
    y = _mm256_fmadd_pd(z, r2, y);
    return _mm256_mul_pd(y, _mm256_castsi256_pd(t));
}

// expf of eight floats; lanes with |x| >= 88 or NaN (glibc's own slow path) by expf
VEXP static __m256 exp8(__m256 x) {
    __m128 hi = _mm256_cvtpd_ps(exp4(_mm256_extractf128_ps(x, 1)));
    __m256 y = _mm256_set_m128(hi, _mm256_cvtpd_ps(exp4(_mm256_castps256_ps128(x))));
    __m256i bits = _mm256_castps_si256(x);
    __m256i top = _mm256_and_si256(bits, _mm256_set1_epi32(0x7fffffff));   // |x|
    __m256i slow = _mm256_cmpgt_epi32(top, _mm256_set1_epi32(0x42afffff));  // >= 88
    if (!_mm256_testz_si256(slow, slow)) {
        float xs[8], ys[8];
        _mm256_storeu_ps(xs, x);
        _mm256_storeu_ps(ys, y);
        for (int i = 0; i < 8; i++) ys[i] = expf(xs[i]);
        y = _mm256_loadu_ps(ys);
    }
    return y;
}

// tanh_fast of eight floats: its three cases each computed, then chosen per lane
VEXP static __m256 tanh8(__m256 x) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 a = _mm256_andnot_ps(sign, x);
    __m256 x2 = _mm256_mul_ps(x, x);                        // |x| < 1/8: the series
    __m256 p = _mm256_set1_ps(62.0f / 2835.0f);
    p = _mm256_sub_ps(_mm256_mul_ps(p, x2), _mm256_set1_ps(17.0f / 315.0f));
    p = _mm256_add_ps(_mm256_mul_ps(p, x2), _mm256_set1_ps(2.0f / 15.0f));
    p = _mm256_sub_ps(_mm256_mul_ps(p, x2), _mm256_set1_ps(1.0f / 3.0f));
    __m256 series = _mm256_add_ps(x, _mm256_mul_ps(_mm256_mul_ps(x, x2), p));
    __m256 t = exp8(_mm256_mul_ps(_mm256_set1_ps(-2.0f), a));   // (1 - t) / (1 + t)
    __m256 one = _mm256_set1_ps(1.0f);
    __m256 big = _mm256_div_ps(_mm256_sub_ps(one, t), _mm256_add_ps(one, t));
    big = _mm256_or_ps(_mm256_andnot_ps(sign, big), _mm256_and_ps(sign, x));
    __m256 mid = _mm256_cmp_ps(a, _mm256_set1_ps(0.125f), _CMP_LT_OQ);
    __m256 tiny = _mm256_cmp_ps(a, _mm256_set1_ps(0x1p-12f), _CMP_LT_OQ);
    return _mm256_blendv_ps(_mm256_blendv_ps(big, series, mid), x, tiny);
}

VEXP static void expf_n8(float *x, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(x + i, exp8(_mm256_loadu_ps(x + i)));
    expf_n1(x + i, n - i);
}
VEXP static void tanh_fast_n8(float *x, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(x + i, tanh8(_mm256_loadu_ps(x + i)));
    tanh_fast_n1(x + i, n - i);
}
VEXP static void sigmoid_n8(float *x, size_t n) {
    const __m256 one = _mm256_set1_ps(1.0f);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 e = exp8(_mm256_xor_ps(_mm256_loadu_ps(x + i), _mm256_set1_ps(-0.0f)));
        _mm256_storeu_ps(x + i, _mm256_div_ps(one, _mm256_add_ps(one, e)));
    }
    sigmoid_n1(x + i, n - i);
}
// The vector path only where glibc itself takes __expf_fma (AVX2 and FMA).
static int vector_ok(void) {
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
static int vector_ok(void) { return 0; }
#define expf_n8 expf_n1
#define tanh_fast_n8 tanh_fast_n1
#define sigmoid_n8 sigmoid_n1
#endif

void expf_n(float *x, size_t n) {
    if (vector_ok()) expf_n8(x, n);
    else expf_n1(x, n);
}
void tanh_fast_n(float *x, size_t n) {
    if (vector_ok()) tanh_fast_n8(x, n);
    else tanh_fast_n1(x, n);
}
void sigmoid_n(float *x, size_t n) {
    if (vector_ok()) sigmoid_n8(x, n);
    else sigmoid_n1(x, n);
}
