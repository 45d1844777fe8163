// void luong_general_attend(d {T, S, K}, s (S,), w (S, K), ann (T, K), mask (T,) or
//   NULL, alpha (T,) out, c (K,) out)
#include "layers/luong.h"
#include "call.h"

#ifdef GRADER_JUDGE
void luong_general_attend(const luong_dims_t *d, const float *s, const float *w,
                          const float *ann, const unsigned char *mask, float *alpha,
                          float *c) {
    grader_arg a[] = {G_INT(d->t_len), G_INT(d->sd), G_INT(d->k),
                      G_CBUF(s, GN(d->sd)), G_CBUF(w, GN(d->sd) * GN(d->k)),
                      G_CBUF(ann, GN(d->t_len) * GN(d->k)), G_CBUF(mask, GN(d->t_len)),
                      G_BUF(alpha, GN(d->t_len)), G_BUF(c, GN(d->k))};
    grader_call("luong_general_attend", a, 9);
}
#else
GRADER_SHIM(luong_general_attend) {
    (void)ret;
    const luong_dims_t d = {(int)a[0].i, (int)a[1].i, (int)a[2].i};
    luong_general_attend(&d, a[3].p, a[4].p, a[5].p, a[6].p, a[7].p, a[8].p);
}
#endif
