// test_tied_embed.c -- tied embedding and output projection: lookups and
// logits by hand, out-of-range tokens, and both backward passes against finite
// differences of L = sum(r * out); the logits' backward gives the bytes of its
// documented order on this machine's path and on the portable one.
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "layers/tied_embed.h"

#include "helpers.h"

// The portable copy, as a processor without AVX2 runs it: tied_embed.c once
// more, without its AVX2 path, under other names.
#define TIED_PORTABLE
#define tied_embed_forward portable_embed_forward
#define tied_embed_backward portable_embed_backward
#define tied_logits_forward portable_logits_forward
#define tied_logits_backward portable_logits_backward
#include "../../code/lib/layers/tied_embed.c"
#undef tied_embed_forward
#undef tied_embed_backward
#undef tied_logits_forward
#undef tied_logits_backward

typedef void logits_bwd_fn(float *, float *, const float *, const float *,
                           const float *, int, int, int);

// Every output of tied_logits_backward is its old value plus one sum taken in
// double in order of its index (i for dx, n for dwte), rounded to float once:
// byte for byte, on both paths, at sizes with odd rows and vocabularies and
// widths below, at and past the 16-column block.
Test(tied_embed, logits_backward_sums_in_the_documented_order_on_both_paths) {
    const int sizes[][3] = {{1, 1, 1},  {3, 5, 16}, {4, 7, 17}, {5, 9, 40},
                            {8, 33, 64}, {7, 2, 15}, {2, 3, 32}};
    for (int s = 0; s < 7; s++) {
        int N = sizes[s][0], V = sizes[s][1], C = sizes[s][2];
        rng_t rng;
        rng_seed(&rng, (uint64_t)(N * 1000 + V * 10 + C));
        float *dl = malloc(sizeof(float) * N * V);
        float *x = malloc(sizeof(float) * N * C);
        float *wte = malloc(sizeof(float) * V * C);
        float *dx0 = malloc(sizeof(float) * N * C);
        float *dw0 = malloc(sizeof(float) * V * C);
        rng_fill_normal(&rng, dl, N * V, 0, 1), rng_fill_normal(&rng, x, N * C, 0, 1);
        rng_fill_normal(&rng, wte, V * C, 0, 1);
        rng_fill_normal(&rng, dx0, N * C, 0, 1);
        rng_fill_normal(&rng, dw0, V * C, 0, 1);
        float *want_dx = malloc(sizeof(float) * N * C);
        float *want_dw = malloc(sizeof(float) * V * C);
        for (int n = 0; n < N; n++)
            for (int c = 0; c < C; c++) {
                double a = 0.0;
                for (int i = 0; i < V; i++) a += dl[n * V + i] * (double)wte[i * C + c];
                want_dx[n * C + c] = dx0[n * C + c] + (float)a;
            }
        for (int i = 0; i < V; i++)
            for (int c = 0; c < C; c++) {
                double a = 0.0;
                for (int n = 0; n < N; n++) a += dl[n * V + i] * (double)x[n * C + c];
                want_dw[i * C + c] = dw0[i * C + c] + (float)a;
            }
        logits_bwd_fn *fn[2] = {tied_logits_backward, portable_logits_backward};
        for (int path = 0; path < 2; path++) {
            float *dx = malloc(sizeof(float) * N * C);
            float *dw = malloc(sizeof(float) * V * C);
            memcpy(dx, dx0, sizeof(float) * N * C);
            memcpy(dw, dw0, sizeof(float) * V * C);
            fn[path](dx, dw, dl, x, wte, N, V, C);
            const char *which = path ? "portable" : "this machine's";
            cr_assert(!memcmp(dx, want_dx, sizeof(float) * N * C), "%s dx %d %d %d",
                      which, N, V, C);
            cr_assert(!memcmp(dw, want_dw, sizeof(float) * V * C), "%s dwte %d %d %d",
                      which, N, V, C);
            free(dx), free(dw);
        }
        free(dl), free(x), free(wte), free(dx0), free(dw0);
        free(want_dx), free(want_dw);
    }
}

Test(tied_embed, lookup_and_logits_by_hand) {
    // wte (3, 2) = [[1, 2], [3, 4], [5, 6]]; tokens (2, 0) -> x = [[5, 6], [1, 2]];
    // logits = x wte^T = [[17, 39, 61], [5, 11, 17]].
    const float wte[6] = {1, 2, 3, 4, 5, 6};
    const int tok[2] = {2, 0};
    float x[4], logits[6];
    cr_assert_eq(tied_embed_forward(x, tok, wte, 2, 3, 2), 0);
    const float want_x[4] = {5, 6, 1, 2}, want_l[6] = {17, 39, 61, 5, 11, 17};
    assert_floats_near(x, want_x, 4, 0, "x");
    tied_logits_forward(logits, x, wte, 2, 3, 2);
    assert_floats_near(logits, want_l, 6, 0, "logits");
    const int bad[2] = {1, 3};
    cr_assert_eq(tied_embed_forward(x, bad, wte, 2, 3, 2), -1);
}

Test(tied_embed, backward_sums_repeated_tokens) {
    // tokens (1, 1, 0): row 1 gets dx[0] + dx[1], row 0 gets dx[2], row 2 nothing.
    const int tok[3] = {1, 1, 0};
    const float dx[6] = {1, 2, 10, 20, 100, 200};
    float dwte[6] = {0};
    tied_embed_backward(dwte, dx, tok, 3, 3, 2);
    const float want[6] = {100, 200, 11, 22, 0, 0};
    assert_floats_near(dwte, want, 6, 0, "dwte");
}

enum { N = 3, V = 5, C = 4 };
typedef struct { float x[N * C], wte[V * C], r[N * V]; } tl_ctx;

static double tl_loss(void *p) {
    tl_ctx *c = p;
    float logits[N * V];
    tied_logits_forward(logits, c->x, c->wte, N, V, C);
    return dot_r(c->r, logits, N * V);
}

typedef struct { int tok[N]; float wte[V * C], r[N * V]; } te_ctx;

// Both uses of the table at once: L = sum(r * (wte[tok] wte^T)).
static double te_loss(void *p) {
    te_ctx *c = p;
    float x[N * C], logits[N * V];
    tied_embed_forward(x, c->tok, c->wte, N, V, C);
    tied_logits_forward(logits, x, c->wte, N, V, C);
    return dot_r(c->r, logits, N * V);
}

Test(tied_embed, backward_matches_finite_differences) {
    tl_ctx c;
    random_fill(c.x, N * C, 1, 1.0f);
    random_fill(c.wte, V * C, 2, 1.0f);
    random_fill(c.r, N * V, 3, 1.0f);
    float dx[N * C] = {0}, dwte[V * C] = {0};
    tied_logits_backward(dx, dwte, c.r, c.x, c.wte, N, V, C);
    check_grad_eps("dx", c.x, dx, N * C, tl_loss, &c, 1e-2f);
    check_grad_eps("dwte", c.wte, dwte, V * C, tl_loss, &c, 1e-2f);

    te_ctx e = {.tok = {3, 0, 3}};
    memcpy(e.wte, c.wte, sizeof e.wte);
    memcpy(e.r, c.r, sizeof e.r);
    float x[N * C], dxe[N * C] = {0}, dw[V * C] = {0};
    tied_embed_forward(x, e.tok, e.wte, N, V, C);
    tied_logits_backward(dxe, dw, e.r, x, e.wte, N, V, C);   // the output use
    tied_embed_backward(dw, dxe, e.tok, N, V, C);            // adds the input use
    check_grad_eps("dwte (tied)", e.wte, dw, V * C, te_loss, &e, 1e-2f);
}
