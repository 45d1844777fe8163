// test_tied_embed.c -- tied embedding and output projection: lookups and
// logits by hand, out-of-range tokens, and both backward passes against finite
// differences of L = sum(r * out).
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "layers/tied_embed.h"

#include "helpers.h"

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
