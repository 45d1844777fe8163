// void ffn_forward(p, x (n, d_model), hidden (n, d_ff), y (n, d_model), n)
#include "call.h"
#include "layers/ffn.h"

#ifdef GRADER_JUDGE
void ffn_forward(const ffn_params_t *p, const float *x, float *hidden, float *y,
                 int n) {
    size_t dm = GN(p->d_model), df = GN(p->d_ff), nn = GN(n);
    grader_arg a[] = {G_INT(p->d_model),      G_INT(p->d_ff),
                      G_CBUF(p->w1, dm * df), G_CBUF(p->b1, df),
                      G_CBUF(p->w2, df * dm), G_CBUF(p->b2, dm),
                      G_CBUF(x, nn * dm),     G_BUF(hidden, nn * df),
                      G_BUF(y, nn * dm),      G_INT(n)};
    grader_call("ffn_forward", a, 10);
}
#else
GRADER_SHIM(ffn_forward) {
    (void)ret;
    ffn_params_t p = {(int)a[0].i, (int)a[1].i, a[2].p, a[3].p, a[4].p, a[5].p};
    ffn_forward(&p, a[6].p, a[7].p, a[8].p, (int)a[9].i);
}
#endif
