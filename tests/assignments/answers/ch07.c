// Numbers of the chapter 7 answers in the instructor edition (never in the book).
// Prints key<TAB>value lines; tests/grader/instructors.py splices them as {{key}}.
#include <math.h>
#include <stdio.h>

#include "position/alibi.h"
#include "position/sinusoidal.h"

enum { N = 100, D = 64 };

int main(void) {
    // Exercise 2: the two positions below 100 whose omega = 1 pair (columns 0, 1)
    // is closest, then the column pair of a d = 64 table that differs most there.
    static float pe[N * D];
    if (sinusoidal_table(pe, N, D, 0, 10000.0)) return 1;
    int bp = 0, bq = 1;
    double best = INFINITY;
    for (int p = 0; p < N; p++)
        for (int q = p + 1; q < N; q++) {
            double a = pe[p * D] - pe[q * D], b = pe[p * D + 1] - pe[q * D + 1];
            if (sqrt(a * a + b * b) < best) best = sqrt(a * a + b * b), bp = p, bq = q;
        }
    int pair = 0;
    double most = -1.0;
    for (int i = 0; i < D / 2; i++) {
        double a = pe[bp * D + 2 * i] - pe[bq * D + 2 * i];
        double b = pe[bp * D + 2 * i + 1] - pe[bq * D + 2 * i + 1];
        if (sqrt(a * a + b * b) > most) most = sqrt(a * a + b * b), pair = i;
    }
    printf("close_p\t%d\n", bp);
    printf("close_q\t%d\n", bq);
    printf("close_dist\t%.4f\n", best);
    printf("close_pair\t%d\n", pair);
    printf("close_cols\t%d and %d\n", 2 * pair, 2 * pair + 1);
    printf("close_pair_dist\t%.3f\n", most);
    // Exercise 4: the slopes of 8 heads and how far back each looks (1 / slope).
    float s[8];
    if (alibi_slopes(s, 8)) return 1;
    printf("alibi_reach_first\t%.0f\n", 1.0 / s[0]);
    printf("alibi_reach_last\t%.0f\n", 1.0 / s[7]);
    return 0;
}
