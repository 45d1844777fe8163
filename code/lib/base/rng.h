// rng.h -- a small, explicit, reproducible random number generator.
//
// There is no hidden global state: every caller owns an rng_t and passes it
// in, so two runs with the same seed print the same numbers on every machine.
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

typedef struct {
    uint64_t state;   // xorshift64* state, never zero
} rng_t;

// Seed the generator; any seed (including 0) is valid.
void rng_seed(rng_t *rng, uint64_t seed);

// Next raw 64-bit value.
uint64_t rng_next(rng_t *rng);

// Uniform float in [0, 1).
float rng_uniform(rng_t *rng);

// Standard normal sample, N(0, 1), by the Box-Muller transform.
float rng_normal(rng_t *rng);

// x (n,) <- independent N(mean, std^2) samples. n = 0 (or below): nothing
// written, nothing drawn (likewise for rng_fill_uniform).
void rng_fill_normal(rng_t *rng, float *x, int n, float mean, float std);

// x (n,) <- independent U(lo, hi) samples.
void rng_fill_uniform(rng_t *rng, float *x, int n, float lo, float hi);

#endif
