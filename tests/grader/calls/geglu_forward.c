// void geglu_forward(a (count,), b (count,), h (count,) out, count); h may be a or b
//   (the judge sends an aliased buffer once)
#include "layers/geglu.h"
#include "call.h"

#ifdef GRADER_JUDGE
void geglu_forward(const float *a, const float *b, float *h, long count) {
    size_t n = GN(count);
    grader_arg arg[] = {G_CBUF(a, n), G_CBUF(b, n), G_BUF(h, n), G_INT(count)};
    grader_call("geglu_forward", arg, 4);
}
#else
GRADER_SHIM(geglu_forward) {
    (void)ret;
    geglu_forward(a[0].p, a[1].p, a[2].p, (long)a[3].i);
}
#endif
