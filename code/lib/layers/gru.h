// gru.h -- the gated recurrent unit (Cho et al., 2014), one step and through time.
//
// PyTorch's convention (nn.GRU, nn.GRUCell), gates in the order r, z, n:
//     r  = sigmoid(x W_ir + b_ir + h W_hr + b_hr)        reset gate
//     z  = sigmoid(x W_iz + b_iz + h W_hz + b_hz)        update gate
//     n  = tanh(x W_in + b_in + r * (h W_hn + b_hn))     candidate state
//     h' = (1 - z) * n + z * h
// Weights are stored (d_in, 3H) and (H, 3H), columns [r | z | n]: the
// transposes of torch's weight_ih (3H, d_in) and weight_hh (3H, H).
//
// B = batch, T = sequence length, D = input width (d_in), H = hidden width.
// Sequences are time-major: x (T, B, D), states (T, B, H); masks are (B, T)
// with 1 = a real token, 0 = padding (a padded step keeps the previous state).
// Any size below 1 (B, T, D or H): nothing is read or written, and a GRU with
// D or H below 1 has no parameters (gru_param_count 0).
#ifndef GRU_H
#define GRU_H

// Views into a flat parameter (or gradient) buffer; see gru_bind.
typedef struct {
    int d_in, h;
    float *w_ih;   // (D, 3H)
    float *w_hh;   // (H, 3H)
    float *b_ih;   // (3H,)
    float *b_hh;   // (3H,)
} gru_params_t;

// Number of floats a GRU with input width D and hidden width H needs.
long gru_param_count(int d_in, int h);

// Point p's fields into buf (gru_param_count floats), in the order
// w_ih, w_hh, b_ih, b_hh. Returns buf + gru_param_count.
float *gru_bind(gru_params_t *p, float *buf, int d_in, int h);

// Floats of cache one step keeps for its backward pass: B * 4H (r, z, n, and
// h W_hn + b_hn); floats of scratch: B * 6H for one step, B * 9H through time.
enum { GRU_CACHE_PER_ROW = 4, GRU_CELL_WORK_PER_ROW = 6, GRU_SEQ_WORK_PER_ROW = 9 };

// One step for a batch: x (B, D), h (B, H) -> h_out (B, H), cache (B, 4H).
// work: B * 6H floats of scratch. h_out must not overlap h. B = 0 does nothing.
// (torch: nn.GRUCell(D, H)(x, h))
void gru_cell_forward(const gru_params_t *p, const float *x, const float *h,
                      float *h_out, float *cache, float *work, int b);

// Gradients of one step, given dh_out (B, H). Accumulates (+=) into dx (B, D)
// (NULL to skip), dh (B, H) and the parameter gradients g. work: B * 6H.
void gru_cell_backward(const gru_params_t *p, gru_params_t *g, const float *x,
                       const float *h, const float *cache, const float *dh_out,
                       float *dx, float *dh, float *work, int b);

// One pass through time, as the forward pass reads and writes it and the
// backward pass reads it: x (T, B, D), mask (B, T) or NULL (all visible), h0
// (B, H) or NULL (zeros); hs (T, B, H) and cache (T, B, 4H), written by
// gru_seq_forward. reverse = 1 runs from t = T-1 down to 0 (the backward half
// of a bidirectional layer).
typedef struct {
    const float *x;
    const unsigned char *mask;
    const float *h0;
    float *hs, *cache;
    int t_len, b, reverse;
} gru_seq_t;

// Through time: s->x, s->mask, s->h0 -> s->hs, s->cache. A padded step copies
// the previous state. work: B * 9H floats.
// (torch: nn.GRU(D, H) on a padded batch, one direction)
void gru_seq_forward(const gru_params_t *p, const gru_seq_t *s, float *work);

// Gradients through time, given dhs (T, B, H) = dLoss/dhs (the last state's
// gradient included). Accumulates (+=) into dx (T, B, D) or NULL, dh0 (B, H) or
// NULL and g. work: B * 9H floats.
void gru_seq_backward(const gru_params_t *p, gru_params_t *g, const gru_seq_t *s,
                      const float *dhs, float *dx, float *dh0, float *work);

// A bidirectional pass: x (T, B, D), mask (B, T) or NULL; the states hs_f, hs_b
// (T, B, H) and caches cache_f, cache_b (T, B, 4H) of its two directions,
// written by bigru_forward and kept for bigru_backward.
typedef struct {
    const float *x;
    const unsigned char *mask;
    float *hs_f, *hs_b, *cache_f, *cache_b;
    int t_len, b;
} bigru_seq_t;

// A bidirectional layer: fwd reads left to right, bwd right to left, and
// out (T, B, 2H) holds [forward state; backward state] at each position.
// work: B * 9H floats. (torch: nn.GRU(D, H, bidirectional=True))
void bigru_forward(const gru_params_t *fwd, const gru_params_t *bwd,
                   const bigru_seq_t *s, float *out, float *work);

// Gradients of bigru_forward given dout (T, B, 2H). dsplit: 2 * T * B * H floats
// of scratch; work: B * 9H. Accumulates (+=) into dx (or NULL), gf and gb.
void bigru_backward(const gru_params_t *fwd, const gru_params_t *bwd,
                    gru_params_t *gf, gru_params_t *gb, const bigru_seq_t *s,
                    const float *dout, float *dx, float *dsplit, float *work);

#endif
