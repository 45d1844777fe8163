// rng.c -- xorshift64* seeded through splitmix64.
#include "base/rng.h"

#include <math.h>

void rng_seed(rng_t *rng, uint64_t seed) {
    // splitmix64 spreads nearby seeds (0, 1, 2, ...) far apart.
    uint64_t z = seed + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z = z ^ (z >> 31);
    rng->state = z ? z : 0x2545F4914F6CDD1Dull;
}

uint64_t rng_next(rng_t *rng) {
    uint64_t x = rng->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng->state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

float rng_uniform(rng_t *rng) {
    // The top 24 bits fill a float mantissa exactly: values k / 2^24.
    return (float)(rng_next(rng) >> 40) * (1.0f / 16777216.0f);
}

float rng_normal(rng_t *rng) {
    // Box-Muller; 1 - u keeps the argument of log() in (0, 1].
    double u1 = 1.0 - (double)(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
    double u2 = (double)(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
    return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

void rng_fill_normal(rng_t *rng, float *x, int n, float mean, float std) {
    for (int i = 0; i < n; i++) x[i] = mean + std * rng_normal(rng);
}

void rng_fill_uniform(rng_t *rng, float *x, int n, float lo, float hi) {
    for (int i = 0; i < n; i++) x[i] = lo + (hi - lo) * rng_uniform(rng);
}
