// rope_rows.c -- RoPE per head on (T, NH HS) rows, forward and backward.
#include "position/rope_rows.h"

#include <math.h>

// -> 1 if rope_rows_* must refuse these sizes (negative, odd HS, base <= 0).
static int bad(int T, int NH, int HS, double base) {
    return T < 0 || NH < 0 || HS < 0 || HS % 2 != 0 || !(base > 0.0);
}

// The cosine and sine of pair i's angle at position pos, computed exactly as
// rope_apply (rope.h) computes them. The angle depends on the position and the
// pair, not on the head, so each is computed once for all NH heads.
static void angle(long pos, int i, int HS, double base, double *c, double *s) {
    double a = (double)pos * pow(base, -2.0 * i / HS);
    *c = cos(a), *s = sin(a);
}

int rope_rows_forward(float *x, int T, int NH, int HS, long pos0, double base) {
    if (bad(T, NH, HS, base)) return -1;
    for (int t = 0; t < T; t++)
        for (int i = 0; i < HS / 2; i++) {
            double c, s;
            angle(pos0 + t, i, HS, base, &c, &s);
            for (int h = 0; h < NH; h++) {        // rope_apply's turn of pair i
                float *row = x + ((long)t * NH + h) * HS;
                double x0 = row[2 * i], x1 = row[2 * i + 1];
                row[2 * i] = (float)(x0 * c - x1 * s);
                row[2 * i + 1] = (float)(x0 * s + x1 * c);
            }
        }
    return 0;
}

// snippet: rope_rows_backward
int rope_rows_backward(float *dx, const float *dout, int T, int NH, int HS, long pos0,
                       double base) {
    if (bad(T, NH, HS, base)) return -1;
    for (int t = 0; t < T; t++)
        for (int i = 0; i < HS / 2; i++) {
            double c, s;
            angle(pos0 + t, i, HS, base, &c, &s);   // one angle, every head
            for (int h = 0; h < NH; h++) {
                const float *g = dout + ((long)t * NH + h) * HS;
                float *d = dx + ((long)t * NH + h) * HS;
                // in the forward pass this was: row[2i]   = x0 * c - x1 * s;
                //                                row[2i+1] = x0 * s + x1 * c;
                // accumulates dx += R^T dout:
                d[2 * i] += (float)(c * g[2 * i] + s * g[2 * i + 1]);
                d[2 * i + 1] += (float)(-s * g[2 * i] + c * g[2 * i + 1]);
            }
        }
    return 0;
}
// end snippet
