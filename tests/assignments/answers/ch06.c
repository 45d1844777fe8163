// Numbers of the chapter 6 answers in the instructor edition (never in the book).
// Prints key<TAB>value lines; tests/grader/instructors.py splices them as {{key}}.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "masks/mask.h"

// x rounded to bfloat16 (the top 16 bits of a float, round to nearest even)
static float to_bf16(float x) {
    uint32_t u;
    memcpy(&u, &x, 4);
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000u;
    memcpy(&x, &u, 4);
    return x;
}

// the largest depth mask_min_layers gives for a band of half-width w over n tokens
static int band_depth(int n, int w) {
    unsigned char *m = malloc((size_t)n * n);
    int *depth = malloc((size_t)n * n * sizeof *depth), most = 0;
    if (!m || !depth) {
        fprintf(stderr, "answers/ch06: out of memory\n");
        exit(1);
    }
    mask_band(m, n, w);
    if (mask_min_layers(m, n, depth)) exit(1);
    for (size_t i = 0; i < (size_t)n * n; i++) most = depth[i] > most ? depth[i] : most;
    free(m), free(depth);
    return most;
}

int main(void) {
    // Exercise 3: the largest finite float16 and bfloat16, and -1e9 in bfloat16.
    uint32_t bits = 0x7F7F0000u;   // bfloat16 0x7F7F: exponent 254, mantissa all ones
    float bf_max;
    memcpy(&bf_max, &bits, 4);
    printf("f16_max\t%.0f\n", ldexp(2.0 - ldexp(1.0, -10), 15));
    printf("bf16_max\t%.4e\n", bf_max);
    printf("bf16_minus_1e9\t%.0f\n", to_bf16(-1e9f));
    // Exercise 4: layers of a band to join the ends, checked with mask_min_layers
    // on a smaller document with the same ratio, then the count at 4096 / 256.
    int small = band_depth(512, 32), n = 4096, w = 256;
    int layers = (n - 1 + w - 1) / w;
    printf("band_small_depth\t%d\n", small);
    printf("band_small_formula\t%d\n", (512 - 1 + 32 - 1) / 32);
    printf("band_layers\t%d\n", layers);
    double band = (double)layers * n * (2 * w + 1), full = (double)n * n;
    printf("band_pairs\t%.3g\n", band);
    printf("full_pairs\t%.3g\n", full);
    printf("band_ratio\t%.2f\n", band / full);
    return 0;
}
