// void relpos_index(idx (n, m), n, m, k_max)
#include "variants/relative.h"
#include "call.h"

#ifdef GRADER_JUDGE
void relpos_index(int *idx, int n, int m, int k_max) {
    grader_arg a[] = {G_BUF(idx, GN(n) * GN(m)), G_INT(n), G_INT(m), G_INT(k_max)};
    grader_call("relpos_index", a, 4);
}
#else
GRADER_SHIM(relpos_index) {
    (void)ret;
    relpos_index(a[0].p, (int)a[1].i, (int)a[2].i, (int)a[3].i);
}
#endif
