// test_gru.c -- GRU step, through time with padding, bidirectional: hand-checked
// values and every gradient against central finite differences.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "layers/gru.h"

enum { B = 3, T = 4, D = 3, H = 5 };

// With every weight and bias 0: r = z = 1/2, n = tanh(0) = 0, h' = h / 2.
Test(gru, zero_weights_halve_the_state) {
    float buf[3 * H * D + 3 * H * H + 6 * H] = {0}, x[D] = {1, 2, 3};
    float h[H] = {1, -2, 4, 0, 8}, out[H], cache[4 * H], work[6 * H];
    gru_params_t p;
    cr_assert_eq(gru_bind(&p, buf, D, H) - buf, gru_param_count(D, H));
    gru_cell_forward(&p, x, h, out, cache, work, 1);
    for (int j = 0; j < H; j++) cr_assert_float_eq(out[j], h[j] / 2, 1e-7);
}

// One unit, hand-computed: x = 1, h = 0.5, W_ir = 1, W_iz = -1, W_in = 2,
// W_hr = W_hz = W_hn = 1, b_hn = 0.5, other biases 0.
//   r = sigmoid(1 + 0.5) = 0.817574, z = sigmoid(-1 + 0.5) = 0.377541,
//   n = tanh(2 + r * (0.5 + 0.5)) = tanh(2.817574) = 0.992876,
//   h' = (1 - z) n + z h = 0.622459 * 0.992876 + 0.188771 = 0.806796
Test(gru, one_unit_by_hand) {
    float buf[12] = {1, -1, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0.5f};
    float x = 1, h = 0.5f, out, cache[4], work[6];
    gru_params_t p;
    gru_bind(&p, buf, 1, 1);
    gru_cell_forward(&p, &x, &h, &out, cache, work, 1);
    cr_assert_float_eq(cache[0], 0.817574f, 1e-6);
    cr_assert_float_eq(cache[1], 0.377541f, 1e-6);
    cr_assert_float_eq(out, 0.806796f, 1e-5);
}

// L = sum of hs * R (R fixed random), in double.
static double seq_loss(const gru_params_t *p, const float *x, const unsigned char *mask,
                       const float *h0, const float *r, int reverse) {
    float hs[T * B * H], cache[T * B * 4 * H], work[B * 9 * H];
    gru_seq_t s = {x, mask, h0, hs, cache, T, B, reverse};
    gru_seq_forward(p, &s, work);
    double l = 0;
    for (int i = 0; i < T * B * H; i++) l += (double)hs[i] * r[i];
    return l;
}

static void check(float *v, const float *grad, int n, double (*f)(void *), void *ctx,
                  const char *what) {
    for (int i = 0; i < n; i++) {
        float keep = v[i], eps = 1e-2f;
        v[i] = keep + eps;
        double lp = f(ctx);
        v[i] = keep - eps;
        double lm = f(ctx);
        v[i] = keep;
        double num = (lp - lm) / (2 * eps);
        cr_assert(fabs(num - grad[i]) <= 2e-3 + 1e-2 * fabs(num),
                  "%s[%d]: numeric %.6f, backward %.6f", what, i, num, grad[i]);
    }
}

typedef struct {
    gru_params_t p;
    float *x, *h0, *r;
    const unsigned char *mask;
    int reverse;
} seq_ctx;

static double seq_f(void *c) {
    seq_ctx *s = c;
    return seq_loss(&s->p, s->x, s->mask, s->h0, s->r, s->reverse);
}

static void seq_gradcheck(int reverse, int with_h0) {
    // row 0 all visible, row 1 length 2, row 2 length 1
    static const unsigned char mask[B * T] = {1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0};
    long np = gru_param_count(D, H);
    float *w = malloc(np * sizeof *w), *g = calloc(np, sizeof *g);
    float x[T * B * D], h0[B * H], r[T * B * H];
    float dx[T * B * D] = {0}, dh0[B * H] = {0};
    float hs[T * B * H], cache[T * B * 4 * H], work[B * 9 * H];
    rng_t rng;
    rng_seed(&rng, 3 + reverse);
    rng_fill_uniform(&rng, w, (int)np, -0.8f, 0.8f);
    rng_fill_normal(&rng, x, T * B * D, 0, 1);
    rng_fill_normal(&rng, h0, B * H, 0, 0.5f);
    rng_fill_normal(&rng, r, T * B * H, 0, 1);
    seq_ctx c = {.x = x, .h0 = with_h0 ? h0 : NULL, .r = r, .mask = mask,
                 .reverse = reverse};
    gru_params_t gp;
    gru_bind(&c.p, w, D, H);
    gru_bind(&gp, g, D, H);
    gru_seq_t s = {x, mask, c.h0, hs, cache, T, B, reverse};
    gru_seq_forward(&c.p, &s, work);
    gru_seq_backward(&c.p, &gp, &s, r, dx, with_h0 ? dh0 : NULL, work);
    check(w, g, (int)np, seq_f, &c, "param");
    check(x, dx, T * B * D, seq_f, &c, "x");
    if (with_h0) check(h0, dh0, B * H, seq_f, &c, "h0");
    // padding: a hidden step copies the previous state
    const float *prev = reverse ? hs + 2 * B * H : hs;   // t = 2 / t = 0
    const float *at = reverse ? hs + 1 * B * H : hs + 1 * B * H;
    (void)at;
    if (!reverse)   // row 1 hides t = 2, 3: they equal t = 1
        for (int j = 0; j < H; j++)
            cr_assert_eq(hs[(3 * B + 1) * H + j], hs[(1 * B + 1) * H + j]);
    (void)prev;
    free(w);
    free(g);
}

Test(gru, gradients_forward_direction) { seq_gradcheck(0, 1); }
Test(gru, gradients_reverse_direction) { seq_gradcheck(1, 0); }

// Reverse over a padded row: the padded tail keeps h = 0, so the state at the
// first step equals the forward pass over the reversed visible tokens.
Test(gru, reverse_equals_forward_on_reversed_input) {
    long np = gru_param_count(D, H);
    float *w = malloc(np * sizeof *w);
    float x[T * D], xr[T * D], hs[T * H], hr[T * H], cache[T * 4 * H], work[9 * H];
    const unsigned char mask[T] = {1, 1, 1, 0};
    rng_t rng;
    rng_seed(&rng, 9);
    rng_fill_uniform(&rng, w, (int)np, -0.5f, 0.5f);
    rng_fill_normal(&rng, x, T * D, 0, 1);
    for (int t = 0; t < 3; t++) memcpy(xr + t * D, x + (2 - t) * D, D * sizeof(float));
    gru_params_t p;
    gru_bind(&p, w, D, H);
    gru_seq_t back = {x, mask, NULL, hs, cache, T, 1, 1};
    gru_seq_t fwd = {xr, NULL, NULL, hr, cache, 3, 1, 0};
    gru_seq_forward(&p, &back, work);
    gru_seq_forward(&p, &fwd, work);
    for (int j = 0; j < H; j++) {
        cr_assert_float_eq(hs[3 * H + j], 0.0f, 0);
        cr_assert_float_eq(hs[0 * H + j], hr[2 * H + j], 1e-6);
    }
    free(w);
}

typedef struct {
    gru_params_t f, b;
    float *x, *r;
    const unsigned char *mask;
} bi_ctx;

static double bi_f(void *c) {
    bi_ctx *s = c;
    float out[T * B * 2 * H], hf[T * B * H], hb[T * B * H];
    float cf[T * B * 4 * H], cb[T * B * 4 * H], work[B * 9 * H];
    bigru_seq_t q = {s->x, s->mask, hf, hb, cf, cb, T, B};
    bigru_forward(&s->f, &s->b, &q, out, work);
    double l = 0;
    for (int i = 0; i < T * B * 2 * H; i++) l += (double)out[i] * s->r[i];
    return l;
}

Test(gru, bidirectional_gradients) {
    static const unsigned char mask[B * T] = {1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0};
    long np = gru_param_count(D, H);
    float *w = malloc(2 * np * sizeof *w), *g = calloc(2 * np, sizeof *g);
    float x[T * B * D], r[T * B * 2 * H], dx[T * B * D] = {0};
    float out[T * B * 2 * H], hf[T * B * H], hb[T * B * H];
    float cf[T * B * 4 * H], cb[T * B * 4 * H], work[B * 9 * H], ds[2 * T * B * H];
    rng_t rng;
    rng_seed(&rng, 5);
    rng_fill_uniform(&rng, w, (int)(2 * np), -0.8f, 0.8f);
    rng_fill_normal(&rng, x, T * B * D, 0, 1);
    rng_fill_normal(&rng, r, T * B * 2 * H, 0, 1);
    bi_ctx c = {.x = x, .r = r, .mask = mask};
    gru_params_t gf, gb;
    gru_bind(&c.b, gru_bind(&c.f, w, D, H), D, H);
    gru_bind(&gb, gru_bind(&gf, g, D, H), D, H);
    bigru_seq_t q = {x, mask, hf, hb, cf, cb, T, B};
    bigru_forward(&c.f, &c.b, &q, out, work);
    bigru_backward(&c.f, &c.b, &gf, &gb, &q, r, dx, ds, work);
    check(w, g, (int)(2 * np), bi_f, &c, "param");
    check(x, dx, T * B * D, bi_f, &c, "x");
    free(w);
    free(g);
}
