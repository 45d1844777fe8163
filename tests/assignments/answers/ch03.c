// Numbers of the chapter 3 answers in the instructor edition (never in the book).
// Prints key<TAB>value lines; tests/grader/instructors.py splices them as {{key}}.
#include <stdio.h>
#include <stdlib.h>

#include "attention/patterns.h"

int main(void) {
    // Exercise 4: with d = 256, the first n at which the scores and weighted sum
    // (2 n^2 d multiply-adds) cost more than the three projections (3 n d^2), the
    // terms of the chapter program's layer_costs.
    double d = 256;
    int n = 1;
    while (2.0 * n * n * d <= 3.0 * n * d * d) n++;
    printf("cross_d\t%.0f\n", d);
    printf("cross_n\t%d\n", n - 1);
    // Exercise 5: a 4 x 4 matrix whose weights fall with the distance from the
    // diagonal (4 : 3 : 2 : 1 for distance 0, 1, 2, 3), rows normalised.
    enum { N = 4 };
    float w[N * N];
    for (int i = 0; i < N; i++) {
        double sum = 0.0;
        for (int j = 0; j < N; j++) sum += 4 - abs(i - j);
        for (int j = 0; j < N; j++) w[i * N + j] = (float)((4 - abs(i - j)) / sum);
    }
    pattern_stats_t s;
    pattern_measure(w, N, &s);
    printf("local_entropy_ratio\t%.3f\n", s.entropy_ratio);
    printf("local_locality\t%.3f\n", s.locality);
    printf("local_kind\t%s\n", pattern_name(pattern_classify(&s)));
    printf("local_row0\t(%.1f, %.1f, %.1f, %.1f)\n", w[0], w[1], w[2], w[3]);
    return 0;
}
