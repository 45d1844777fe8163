// Numbers of the chapter 5 answers in the instructor edition (never in the book).
// Prints key<TAB>value lines; tests/grader/instructors.py splices them as {{key}}.
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fast/tiled.h"
#include "variants/sparse.h"

// Exercise 2: the strided pattern (causal or symmetric) with window w and stride s
// at length n; counts the pairs (j <= i when causal) that two steps do not join,
// with rows as bit sets, and the smallest distance |i - j| among them.
static void two_step(int n, int w, int s, int causal, long *missing, int *min_dist,
                     int *first_i) {
    sparse_pattern_t p;
    unsigned char *mask = malloc((size_t)n * n);
    int words = (n + 63) / 64;
    uint64_t *row = calloc((size_t)n * words, sizeof *row), *acc = malloc(words * 8);
    if (!mask || !row || !acc || sparse_build(&p, n, w, s, causal)) {
        fprintf(stderr, "answers/ch05: out of memory\n");
        exit(1);
    }
    sparse_to_mask(&p, mask);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (mask[(size_t)i * n + j]) row[(size_t)i * words + j / 64] |= 1ull << (j % 64);
    *missing = 0, *min_dist = n, *first_i = n;
    for (int i = 0; i < n; i++) {
        for (int x = 0; x < words; x++) acc[x] = row[(size_t)i * words + x];
        for (int k = 0; k < n; k++)
            if (mask[(size_t)i * n + k])
                for (int x = 0; x < words; x++) acc[x] |= row[(size_t)k * words + x];
        for (int j = 0; j < (causal ? i + 1 : n); j++)
            if (!(acc[j / 64] >> (j % 64) & 1)) {
                ++*missing;
                if (abs(i - j) < *min_dist) *min_dist = abs(i - j);
                if (i < *first_i) *first_i = i;
            }
    }
    sparse_free(&p);
    free(mask), free(row), free(acc);
}

// The smallest n at which the window-16 pattern with s = round(sqrt n) leaves a
// pair two steps do not join; prints it, its stride and the smallest such distance.
static void first_failure(int causal, const char *name) {
    long miss = 0;
    int n = 1, s = 1, md = 0, fi = 0;
    while (miss == 0 && n < 4096) {
        n++, s = (int)lround(sqrt(n));
        two_step(n, 16, s, causal, &miss, &md, &fi);
    }
    printf("reach_first_n_%s\t%d\n", name, n);
    printf("reach_first_s_%s\t%d\n", name, s);
    printf("reach_first_dist_%s\t%d\n", name, md);
}

int main(void) {
    int n = 2048, s = (int)lround(sqrt(n)), md, fi;
    long miss;
    two_step(n, 16, s, 1, &miss, &md, &fi);
    printf("reach_n\t%d\n", n);
    printf("reach_s\t%d\n", s);
    printf("reach_missing\t%ld\n", miss);
    printf("reach_fraction\t%.3f\n", miss / (n * (n + 1) / 2.0));
    printf("reach_min_dist\t%d\n", md);
    two_step(n, s, s, 1, &miss, &md, &fi);
    printf("reach_missing_equal\t%ld\n", miss);
    first_failure(1, "causal");
    first_failure(0, "symmetric");
    // Exercise 10: m = 2^20 weights of at most 2^L sum below FLT_MAX for L up to
    // ex10_lazy_max; the kernel's L leaves FLT_MAX / (m 2^L) > 2^ex10_margin.
    int lazy_max = 0;
    while (ldexp(1.0, 20 + lazy_max + 1) <= FLT_MAX) lazy_max++;
    printf("ex10_lazy_max\t%d\n", lazy_max);
    printf("ex10_lazy\t%.0f\n", (double)TILED_LAZY);
    printf("ex10_margin\t%d\n",
           (int)floor(log2((double)FLT_MAX / ldexp(1.0, 20 + (int)TILED_LAZY))));
    return 0;
}
