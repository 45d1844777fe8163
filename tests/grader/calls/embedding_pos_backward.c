// void embedding_pos_backward(ids (N,), dout (N, E), dtable (V, E), n, v, e)
#include "call.h"
#include "layers/embedding.h"

#ifdef GRADER_JUDGE
void embedding_pos_backward(const int *ids, const float *dout, float *dtable, int n,
                            int v, int e) {
    grader_arg a[] = {G_CBUF(ids, GN(n)),
                      G_CBUF(dout, GN(n) * GN(e)),
                      G_BUF(dtable, GN(v) * GN(e)),
                      G_INT(n),
                      G_INT(v),
                      G_INT(e)};
    grader_call("embedding_pos_backward", a, 6);
}
#else
GRADER_SHIM(embedding_pos_backward) {
    (void)ret;
    embedding_pos_backward(a[0].p, a[1].p, a[2].p, (int)a[3].i, (int)a[4].i,
                           (int)a[5].i);
}
#endif
