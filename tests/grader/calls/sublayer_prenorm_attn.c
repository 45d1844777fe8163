// int sublayer_prenorm_attn(p {d_model, n_heads, d_k, w_q, w_k, w_v, w_o, b_o},
//   ln {d, gamma, beta}, x (n, d_model), mask (n, n) or NULL, y (n, d_model) out, n)
#include "call.h"
#include "layers/sublayer.h"

#ifdef GRADER_JUDGE
int sublayer_prenorm_attn(const mha_params_t *p, const layernorm_params_t *ln,
                          const float *x, const unsigned char *mask, float *y, int n) {
    size_t d = GN(p->d_model), nn = GN(n), dl = GN(ln->d);
    grader_arg a[] = {G_INT(p->d_model),     G_INT(p->n_heads),
                      G_INT(p->d_k),         G_CBUF(p->w_q, d * d),
                      G_CBUF(p->w_k, d * d), G_CBUF(p->w_v, d * d),
                      G_CBUF(p->w_o, d * d), G_CBUF(p->b_o, d),
                      G_INT(ln->d),          G_CBUF(ln->gamma, dl),
                      G_CBUF(ln->beta, dl),  G_CBUF(x, nn * d),
                      G_CBUF(mask, nn * nn), G_BUF(y, nn * d),
                      G_INT(n)};
    return (int)grader_call("sublayer_prenorm_attn", a, 15).i;
}
#else
GRADER_SHIM(sublayer_prenorm_attn) {
    const mha_params_t p = {(int)a[0].i, (int)a[1].i, (int)a[2].i, a[3].p,
                            a[4].p,      a[5].p,      a[6].p,      a[7].p};
    const layernorm_params_t ln = {(int)a[8].i, a[9].p, a[10].p};
    ret->i = sublayer_prenorm_attn(&p, &ln, a[11].p, a[12].p, a[13].p, (int)a[14].i);
}
#endif
