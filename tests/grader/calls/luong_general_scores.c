// void luong_general_scores(d {T, S, K}, s (S,), w (S, K), ann (T, K), scores (T,) out)
#include "layers/luong.h"
#include "call.h"

#ifdef GRADER_JUDGE
void luong_general_scores(const luong_dims_t *d, const float *s, const float *w,
                          const float *ann, float *scores) {
    grader_arg a[] = {G_INT(d->t_len), G_INT(d->sd), G_INT(d->k),
                      G_CBUF(s, GN(d->sd)), G_CBUF(w, GN(d->sd) * GN(d->k)),
                      G_CBUF(ann, GN(d->t_len) * GN(d->k)), G_BUF(scores, GN(d->t_len))};
    grader_call("luong_general_scores", a, 7);
}
#else
GRADER_SHIM(luong_general_scores) {
    (void)ret;
    const luong_dims_t d = {(int)a[0].i, (int)a[1].i, (int)a[2].i};
    luong_general_scores(&d, a[3].p, a[4].p, a[5].p, a[6].p);
}
#endif
