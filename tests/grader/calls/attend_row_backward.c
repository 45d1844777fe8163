// attend_row_backward(fw {q (d_k,), k, v (n_keys rows of stride floats), a (n_keys,)},
//   dd {ctx (d_k,) read; q (d_k,), k, v (as fw's) accumulated}, stride, n_keys, d_k):
//   static in transformer.c, which grade.sh compiles with it made visible (both
//   sides). att_cache_t is transformer.c's own; the same layout is declared here.
#include "call.h"

typedef struct {
    float *q, *k, *v, *a, *ctx;
} att_cache_t;

void attend_row_backward(const att_cache_t *fw, att_cache_t *dd, int stride, int n_keys,
                         int d_k);

#ifdef GRADER_JUDGE
void attend_row_backward(const att_cache_t *fw, att_cache_t *dd, int stride, int n_keys,
                         int d_k) {
    size_t rows = n_keys > 0 ? (size_t)(n_keys - 1) * GN(stride) + GN(d_k) : 0;
    grader_arg a[] = {G_CBUF(fw->q, GN(d_k)),   G_CBUF(fw->k, rows), G_CBUF(fw->v, rows),
                      G_CBUF(fw->a, GN(n_keys)), G_CBUF(dd->ctx, GN(d_k)),
                      G_BUF(dd->q, GN(d_k)),     G_BUF(dd->k, rows),  G_BUF(dd->v, rows),
                      G_INT(stride),             G_INT(n_keys),       G_INT(d_k)};
    grader_call("attend_row_backward", a, 11);
}
#else
GRADER_SHIM(attend_row_backward) {
    (void)ret;
    const att_cache_t fw = {a[0].p, a[1].p, a[2].p, a[3].p, NULL};
    att_cache_t dd = {a[5].p, a[6].p, a[7].p, NULL, a[4].p};
    attend_row_backward(&fw, &dd, (int)a[8].i, (int)a[9].i, (int)a[10].i);
}
#endif
