// float score_cosine(const float *q, const float *k, int d)
#include "attention/scoring.h"
#include "call.h"

#ifdef GRADER_JUDGE
float score_cosine(const float *q, const float *k, int d) {
    grader_arg a[] = {G_CBUF(q, GN(d)), G_CBUF(k, GN(d)), G_INT(d)};
    return (float)grader_call("score_cosine", a, 3).d;
}
#else
GRADER_SHIM(score_cosine) {
    ret->d = score_cosine(a[0].p, a[1].p, (int)a[2].i);
}
#endif
