// int sublayer_prenorm_ffn_backward(f, ln, x (n, d_model), dy (n, d_model),
//   dx (n, d_model) +=, gf (like f) +=, gln (like ln) +=, n)
#include "call.h"
#include "layers/sublayer.h"

#ifdef GRADER_JUDGE
int sublayer_prenorm_ffn_backward(const ffn_params_t *f, const layernorm_params_t *ln,
                                  const float *x, const float *dy, float *dx,
                                  ffn_params_t *gf, layernorm_params_t *gln, int n) {
    size_t dm = GN(f->d_model), df = GN(f->d_ff), nn = GN(n), dl = GN(ln->d);
    grader_arg a[] = {G_INT(f->d_model),       G_INT(f->d_ff),
                      G_CBUF(f->w1, dm * df),  G_CBUF(f->b1, df),
                      G_CBUF(f->w2, df * dm),  G_CBUF(f->b2, dm),
                      G_INT(ln->d),            G_CBUF(ln->gamma, dl),
                      G_CBUF(ln->beta, dl),    G_CBUF(x, nn * dm),
                      G_CBUF(dy, nn * dm),     G_BUF(dx, nn * dm),
                      G_BUF(gf->w1, dm * df),  G_BUF(gf->b1, df),
                      G_BUF(gf->w2, df * dm),  G_BUF(gf->b2, dm),
                      G_BUF(gln->gamma, dl),   G_BUF(gln->beta, dl),
                      G_INT(n)};
    return (int)grader_call("sublayer_prenorm_ffn_backward", a, 19).i;
}
#else
GRADER_SHIM(sublayer_prenorm_ffn_backward) {
    const ffn_params_t f = {(int)a[0].i, (int)a[1].i, a[2].p, a[3].p, a[4].p, a[5].p};
    const layernorm_params_t ln = {(int)a[6].i, a[7].p, a[8].p};
    ffn_params_t gf = {(int)a[0].i, (int)a[1].i, a[12].p, a[13].p, a[14].p, a[15].p};
    layernorm_params_t gln = {(int)a[6].i, a[16].p, a[17].p};
    ret->i = sublayer_prenorm_ffn_backward(&f, &ln, a[9].p, a[10].p, a[11].p, &gf, &gln,
                                           (int)a[18].i);
}
#endif
