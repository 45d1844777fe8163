// Numbers of the chapter 5 answers in the instructor edition (never in the book).
// Prints key<TAB>value lines; tests/grader/instructors.py splices them as {{key}}.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "variants/sparse.h"

// Exercise 2: the causal strided pattern with window w and stride s at length n;
// counts the causal pairs (j <= i) that two steps do not join, with rows as bit
// sets, and the smallest distance i - j among them.
static void two_step(int n, int w, int s, long *missing, int *min_dist, int *first_i) {
    sparse_pattern_t p;
    unsigned char *mask = malloc((size_t)n * n);
    int words = (n + 63) / 64;
    uint64_t *row = calloc((size_t)n * words, sizeof *row), *acc = malloc(words * 8);
    if (!mask || !row || !acc || sparse_build(&p, n, w, s, 1)) {
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
        for (int j = 0; j <= i; j++)
            if (!(acc[j / 64] >> (j % 64) & 1)) {
                ++*missing;
                if (i - j < *min_dist) *min_dist = i - j;
                if (i < *first_i) *first_i = i;
            }
    }
    sparse_free(&p);
    free(mask), free(row), free(acc);
}

int main(void) {
    int n = 2048, s = (int)lround(sqrt(n)), md, fi;
    long miss;
    two_step(n, 16, s, &miss, &md, &fi);
    printf("reach_n\t%d\n", n);
    printf("reach_s\t%d\n", s);
    printf("reach_missing\t%ld\n", miss);
    printf("reach_fraction\t%.3f\n", miss / (n * (n + 1) / 2.0));
    printf("reach_min_dist\t%d\n", md);
    two_step(n, s, s, &miss, &md, &fi);
    printf("reach_missing_equal\t%ld\n", miss);
    return 0;
}
