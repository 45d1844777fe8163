// float score_additive(const additive_params_t *p, const float *q, const float *k)
#include "attention/scoring.h"
#include "call.h"

#ifdef GRADER_JUDGE
float score_additive(const additive_params_t *p, const float *q, const float *k) {
    size_t dq = GN(p->d_q), dk = GN(p->d_k), dh = GN(p->d_h);
    grader_arg a[] = {G_CBUF(p->w_q, dh * dq), G_CBUF(p->w_k, dh * dk),
                      G_CBUF(p->v, dh),        G_INT(p->d_q),
                      G_INT(p->d_k),           G_INT(p->d_h),
                      G_CBUF(q, dq),           G_CBUF(k, dk)};
    return (float)grader_call("score_additive", a, 8).d;
}
#else
GRADER_SHIM(score_additive) {
    additive_params_t p = {a[0].p,      a[1].p,      a[2].p,
                           (int)a[3].i, (int)a[4].i, (int)a[5].i};
    ret->d = score_additive(&p, a[6].p, a[7].p);
}
#endif
