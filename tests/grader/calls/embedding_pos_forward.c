// int embedding_pos_forward(table (V, E), ids (N,), pe (N, E), out (N, E), n, v, e)
#include "call.h"
#include "layers/embedding.h"

#ifdef GRADER_JUDGE
int embedding_pos_forward(const float *table, const int *ids, const float *pe,
                          float *out, int n, int v, int e) {
    grader_arg a[] = {G_CBUF(table, GN(v) * GN(e)),
                      G_CBUF(ids, GN(n)),
                      G_CBUF(pe, GN(n) * GN(e)),
                      G_BUF(out, GN(n) * GN(e)),
                      G_INT(n),
                      G_INT(v),
                      G_INT(e)};
    return (int)grader_call("embedding_pos_forward", a, 7).i;
}
#else
GRADER_SHIM(embedding_pos_forward) {
    ret->i = embedding_pos_forward(a[0].p, a[1].p, a[2].p, a[3].p, (int)a[4].i,
                                   (int)a[5].i, (int)a[6].i);
}
#endif
