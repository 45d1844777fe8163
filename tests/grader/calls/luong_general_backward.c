// void luong_general_backward(d {T, S, K}, s (S,), w (S, K), ann (T, K), alpha (T,),
//   dc (K,), ds (S,) +=, dw (S, K) +=, dann (T, K) +=)
#include "layers/luong.h"
#include "call.h"

#ifdef GRADER_JUDGE
void luong_general_backward(const luong_dims_t *d, const float *s, const float *w,
                            const float *ann, const float *alpha, const float *dc,
                            float *ds, float *dw, float *dann) {
    size_t t = GN(d->t_len), sd = GN(d->sd), k = GN(d->k);
    grader_arg a[] = {G_INT(d->t_len), G_INT(d->sd), G_INT(d->k), G_CBUF(s, sd),
                      G_CBUF(w, sd * k),   G_CBUF(ann, t * k), G_CBUF(alpha, t),
                      G_CBUF(dc, k),       G_BUF(ds, sd),      G_BUF(dw, sd * k),
                      G_BUF(dann, t * k)};
    grader_call("luong_general_backward", a, 11);
}
#else
GRADER_SHIM(luong_general_backward) {
    (void)ret;
    const luong_dims_t d = {(int)a[0].i, (int)a[1].i, (int)a[2].i};
    luong_general_backward(&d, a[3].p, a[4].p, a[5].p, a[6].p, a[7].p, a[8].p, a[9].p,
                           a[10].p);
}
#endif
