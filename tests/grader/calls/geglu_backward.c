// void geglu_backward(a (count,), b (count,), dh (count,), da (count,) +=,
//   db (count,) +=, count)
#include "layers/geglu.h"
#include "call.h"

#ifdef GRADER_JUDGE
void geglu_backward(const float *a, const float *b, const float *dh, float *da,
                    float *db, long count) {
    size_t n = GN(count);
    grader_arg arg[] = {G_CBUF(a, n),  G_CBUF(b, n),  G_CBUF(dh, n),
                        G_BUF(da, n),  G_BUF(db, n),  G_INT(count)};
    grader_call("geglu_backward", arg, 6);
}
#else
GRADER_SHIM(geglu_backward) {
    (void)ret;
    geglu_backward(a[0].p, a[1].p, a[2].p, a[3].p, a[4].p, (long)a[5].i);
}
#endif
