// test_stats.c -- mean, standard deviation and histogram.
#include <criterion/criterion.h>
#include <math.h>

#include "base/rng.h"
#include "base/stats.h"

// Hand computation: mean (1+2+3+4)/4 = 2.5; squared deviations 2.25, 0.25,
// 0.25, 2.25 sum to 5; population std sqrt(5/4) = 1.1180.
Test(stats, known_values_by_hand) {
    float x[4] = {1, 2, 3, 4};
    stats_t s = stats_of(x, 4);
    cr_assert_float_eq(s.mean, 2.5, 1e-12);
    cr_assert_float_eq(s.std, sqrt(1.25), 1e-12);
    cr_assert_float_eq(s.min, 1.0, 0.0);
    cr_assert_float_eq(s.max, 4.0, 0.0);
}

// Two passes keep the std exact even far from zero: (10001, 10002, 10003)
// has std sqrt(2/3), like (1, 2, 3).
Test(stats, large_offset_does_not_lose_the_std) {
    float x[3] = {10001, 10002, 10003};
    stats_t s = stats_of(x, 3);
    cr_assert_float_eq(s.std, sqrt(2.0 / 3.0), 1e-9);
}

Test(stats, single_value) {
    float x[1] = {-3.5f};
    stats_t s = stats_of(x, 1);
    cr_assert_float_eq(s.mean, -3.5, 0.0);
    cr_assert_float_eq(s.std, 0.0, 0.0);
}

// N(0, 1) samples: mean near 0 and std near 1 (100000 samples: standard
// error of the mean 0.003, so 0.02 is a wide margin).
Test(stats, normal_samples) {
    static float x[100000];
    rng_t rng;
    rng_seed(&rng, 3);
    rng_fill_normal(&rng, x, 100000, 0.0f, 1.0f);
    stats_t s = stats_of(x, 100000);
    cr_assert_float_eq(s.mean, 0.0, 0.02);
    cr_assert_float_eq(s.std, 1.0, 0.02);
}

Test(stats, histogram_bins_edges_and_outliers) {
    float x[7] = {0.0f, 0.5f, 0.99f, 1.0f, 2.0f, -0.1f, 2.1f};
    int counts[2];
    int counted = stats_histogram(x, 7, 0.0, 2.0, 2, counts);
    cr_assert_eq(counted, 5);          // -0.1 and 2.1 are outside
    cr_assert_eq(counts[0], 3);        // 0, 0.5, 0.99
    cr_assert_eq(counts[1], 2);        // 1.0 and the top edge 2.0
    float nan[1] = {NAN};
    cr_assert_eq(stats_histogram(nan, 1, 0.0, 1.0, 2, counts), 0);
}
