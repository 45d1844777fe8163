// int sublayer_prenorm_ffn(f {d_model, d_ff, w1, b1, w2, b2}, ln {d, gamma, beta},
//   x (n, d_model), y (n, d_model) out, n)
#include "call.h"
#include "layers/sublayer.h"

#ifdef GRADER_JUDGE
int sublayer_prenorm_ffn(const ffn_params_t *f, const layernorm_params_t *ln,
                         const float *x, float *y, int n) {
    size_t dm = GN(f->d_model), df = GN(f->d_ff), nn = GN(n), dl = GN(ln->d);
    grader_arg a[] = {G_INT(f->d_model),      G_INT(f->d_ff),
                      G_CBUF(f->w1, dm * df), G_CBUF(f->b1, df),
                      G_CBUF(f->w2, df * dm), G_CBUF(f->b2, dm),
                      G_INT(ln->d),           G_CBUF(ln->gamma, dl),
                      G_CBUF(ln->beta, dl),   G_CBUF(x, nn * dm),
                      G_BUF(y, nn * dm),      G_INT(n)};
    return (int)grader_call("sublayer_prenorm_ffn", a, 12).i;
}
#else
GRADER_SHIM(sublayer_prenorm_ffn) {
    const ffn_params_t f = {(int)a[0].i, (int)a[1].i, a[2].p, a[3].p, a[4].p, a[5].p};
    const layernorm_params_t ln = {(int)a[6].i, a[7].p, a[8].p};
    ret->i = sublayer_prenorm_ffn(&f, &ln, a[9].p, a[10].p, (int)a[11].i);
}
#endif
