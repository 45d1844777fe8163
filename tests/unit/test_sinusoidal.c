// test_sinusoidal.c -- the sinusoidal table and its offset map.
//
// Suites are named after the function they test; sinusoidal_table is a
// graded exercise.
#include <criterion/criterion.h>
#include <math.h>

#include "position/sinusoidal.h"

// d = 4, base 10000: w_0 = 1, w_1 = 10000^(-2/4) = 0.01.
// Row 1 = [sin 1, cos 1, sin 0.01, cos 0.01]
//       = [0.841471, 0.540302, 0.0099998, 0.99995].
Test(sinusoidal_table, hand_values_d4) {
    float pe[3 * 4];
    cr_assert_eq(sinusoidal_table(pe, 3, 4, 0, 10000), 0);
    const float row0[4] = {0, 1, 0, 1};
    const float row1[4] = {0.841471f, 0.540302f, 0.0099998f, 0.99995f};
    for (int c = 0; c < 4; c++) {
        cr_assert_float_eq(pe[c], row0[c], 1e-6, "row 0 col %d", c);
        cr_assert_float_eq(pe[4 + c], row1[c], 1e-6, "row 1 col %d", c);
    }
    // Row 2: sin 2 = 0.909297, cos 2 = -0.416147.
    cr_assert_float_eq(pe[8], 0.909297f, 1e-6);
    cr_assert_float_eq(pe[9], -0.416147f, 1e-6);
}

// Every sin/cos pair lies on the unit circle, so |PE(pos)|^2 = d/2.
Test(sinusoidal_table, rows_have_length_sqrt_half_d) {
    enum { N = 300, D = 32 };
    static float pe[N * D];
    cr_assert_eq(sinusoidal_table(pe, N, D, 0, 10000), 0);
    for (int p = 0; p < N; p++) {
        double s = 0.0;
        for (int c = 0; c < D; c++) s += (double)pe[p * D + c] * pe[p * D + c];
        cr_assert_float_eq(s, D / 2.0, 1e-5, "row %d", p);
    }
}

// pos0 shifts the rows: table(pos0 = 7) row r == table(pos0 = 0) row r + 7.
Test(sinusoidal_table, pos0_shifts_rows) {
    enum { N = 20, D = 10 };
    float a[(N + 7) * D], b[N * D];
    cr_assert_eq(sinusoidal_table(a, N + 7, D, 0, 10000), 0);
    cr_assert_eq(sinusoidal_table(b, N, D, 7, 10000), 0);
    for (int e = 0; e < N * D; e++) cr_assert_float_eq(b[e], a[7 * D + e], 1e-6);
}

// d odd: the last column is a sine; nothing is written past (n, d).
Test(sinusoidal_table, odd_width_and_bounds) {
    float pe[2 * 3 + 1];
    pe[6] = 123.0f;
    cr_assert_eq(sinusoidal_table(pe, 2, 3, 0, 10000), 0);
    // d = 3: w_1 = 10000^(-2/3); column 2 of row 1 is sin(w_1).
    cr_assert_float_eq(pe[3 + 2], (float)sin(pow(10000, -2.0 / 3)), 1e-7);
    cr_assert_eq(pe[6], 123.0f);
}

Test(sinusoidal_table, degenerate_and_errors) {
    float pe[4] = {5, 5, 5, 5};
    cr_assert_eq(sinusoidal_table(pe, 0, 4, 0, 10000), 0);
    cr_assert_eq(pe[0], 5.0f);                                   // n = 0: nothing
    cr_assert_eq(sinusoidal_table(pe, 1, 1, 0, 10000), 0);       // d = 1: sin(0)
    cr_assert_eq(pe[0], 0.0f);
    cr_assert_eq(sinusoidal_table(pe, -1, 4, 0, 10000), -1);
    cr_assert_eq(sinusoidal_table(pe, 1, 4, -3, 10000), -1);
    cr_assert_eq(sinusoidal_table(pe, 1, 4, 0, 0.0), -1);
    cr_assert_eq(pe[1], 5.0f);                                   // untouched
}

// The offset map: PE(pos + k) = M_k PE(pos) for every pos, and M_k is a
// rotation (M M^T = I).
Test(sinusoidal_offset_matrix, maps_pos_to_pos_plus_k) {
    enum { N = 200, D = 16 };
    static float pe[(N + 50) * D];
    float m[D * D];
    cr_assert_eq(sinusoidal_table(pe, N + 50, D, 0, 10000), 0);
    const long ks[4] = {0, 1, 13, 50};
    for (int t = 0; t < 4; t++) {
        cr_assert_eq(sinusoidal_offset_matrix(m, D, ks[t], 10000), 0);
        for (int p = 0; p < N; p++)
            for (int i = 0; i < D; i++) {
                double y = 0.0;
                for (int j = 0; j < D; j++) y += (double)m[i * D + j] * pe[p * D + j];
                cr_assert_float_eq(y, pe[(p + ks[t]) * D + i], 1e-5, "k %ld", ks[t]);
            }
        for (int i = 0; i < D; i++)
            for (int j = 0; j < D; j++) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)m[i * D + c] * m[j * D + c];
                cr_assert_float_eq(s, i == j, 1e-6);
            }
    }
}

// k = 0 is the identity; M_{-k} is the transpose (inverse) of M_k.
Test(sinusoidal_offset_matrix, identity_and_inverse) {
    enum { D = 6 };
    float m0[D * D], mp[D * D], mm[D * D];
    cr_assert_eq(sinusoidal_offset_matrix(m0, D, 0, 10000), 0);
    for (int i = 0; i < D; i++)
        for (int j = 0; j < D; j++) cr_assert_float_eq(m0[i * D + j], i == j, 1e-7);
    sinusoidal_offset_matrix(mp, D, 9, 10000);
    sinusoidal_offset_matrix(mm, D, -9, 10000);
    for (int i = 0; i < D; i++)
        for (int j = 0; j < D; j++)
            cr_assert_float_eq(mm[i * D + j], mp[j * D + i], 1e-7);
    cr_assert_eq(sinusoidal_offset_matrix(m0, -1, 1, 10000), -1);
    cr_assert_eq(sinusoidal_offset_matrix(m0, D, 1, -1.0), -1);
}

Test(sinusoidal_freq, geometric) {
    cr_assert_float_eq(sinusoidal_freq(0, 64, 10000), 1.0, 1e-12);
    cr_assert_float_eq(sinusoidal_freq(16, 64, 10000), 0.01, 1e-12);   // 10000^(-1/2)
    cr_assert_float_eq(sinusoidal_freq(8, 64, 10000), 0.1, 1e-12);     // 10000^(-1/4)
}
