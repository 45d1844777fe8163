// profile_tiled.c -- the exact kernel alone, for a profiler (make bench's profile).
//
// profile_tiled N D SECONDS: calls tiled_attention_forward on one head of N
// queries and N keys of width D, one thread, again and again for SECONDS of
// wall time, then prints the calls made and their mean GFLOP/s (4 N^2 D
// operations a call). code/bench/bench.sh runs it under `perf record`; it
// reads nothing and writes only that line.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base/rng.h"
#include "fast/tiled.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// An integer argument in lo..hi, or -1.
static long arg(const char *s, long lo, long hi) {
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= lo && v <= hi ? v : -1;
}

int main(int argc, char **argv) {
    long n = argc == 4 ? arg(argv[1], 1, 1 << 16) : -1;
    long d = argc == 4 ? arg(argv[2], 1, 1024) : -1;
    long seconds = argc == 4 ? arg(argv[3], 1, 3600) : -1;
    if (n < 0 || d < 0 || seconds < 0) {
        fprintf(stderr, "usage: profile_tiled N (1..65536) D (1..1024) SECONDS "
                        "(1..3600)\n");
        return 2;
    }
    size_t nd = (size_t)n * (size_t)d;
    float *q = malloc(nd * sizeof *q), *k = malloc(nd * sizeof *k);
    float *v = malloc(nd * sizeof *v), *out = malloc(nd * sizeof *out);
    if (!q || !k || !v || !out) {
        fprintf(stderr, "profile_tiled: out of memory\n");
        return 1;
    }
    rng_t rng;
    rng_seed(&rng, 42);
    rng_fill_normal(&rng, q, (int)nd, 0.0f, 1.0f);
    rng_fill_normal(&rng, k, (int)nd, 0.0f, 1.0f);
    rng_fill_normal(&rng, v, (int)nd, 0.0f, 1.0f);
    long calls = 0;
    double t0 = now(), t = t0;
    while (t - t0 < (double)seconds) {
        if (tiled_attention_forward(q, k, v, out, 1, (int)n, (int)n, (int)d, (int)d)) {
            fprintf(stderr, "profile_tiled: the kernel failed\n");
            return 1;
        }
        calls++;
        t = now();
    }
    printf("profile_tiled: %ld calls at n = %ld, d = %ld, %.1f GFLOP/s\n", calls, n, d,
           4.0 * (double)n * n * d * calls / (t - t0) / 1e9);
    free(q), free(k), free(v), free(out);
    return 0;
}
