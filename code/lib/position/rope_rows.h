// rope_rows.h -- RoPE on the query and key rows of multi-head attention, and
// its backward pass. Every head's HS-wide slice of row t is turned exactly as
// rope_apply (rope.h) turns a row at position pos0 + t: pairs (x_2i, x_2i+1),
// angle (pos0 + t) theta_i, theta_i = base^(-2i / HS).
// T time steps, NH heads, HS head size; x is (T, NH HS).
#ifndef ROPE_ROWS_H
#define ROPE_ROWS_H

// x (T, NH HS) <- every head of row t turned for position pos0 + t, in place
// (rope_apply's numbers on each slice; each angle computed once for all heads).
// Returns 0; -1 (x unchanged) if HS is odd, a size is negative or base <= 0.
// (torch: the complex-number form in rope.h, per head)
int rope_rows_forward(float *x, int T, int NH, int HS, long pos0, double base);

// Gradient of rope_rows_forward: a rotation's transpose turns back, so
// dx (T, NH HS) += R^T dout (accumulates); dx must not overlap dout.
// Returns 0; -1 (nothing accumulated) on the sizes rope_rows_forward refuses.
int rope_rows_backward(float *dx, const float *dout, int T, int NH, int HS, long pos0,
                       double base);

#endif
