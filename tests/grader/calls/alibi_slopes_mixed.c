// int alibi_slopes_mixed(slopes (heads,) out, heads)
#include "position/alibi.h"
#include "call.h"

#ifdef GRADER_JUDGE
int alibi_slopes_mixed(float *slopes, int heads) {
    grader_arg a[] = {G_BUF(slopes, GN(heads)), G_INT(heads)};
    return (int)grader_call("alibi_slopes_mixed", a, 2).i;
}
#else
GRADER_SHIM(alibi_slopes_mixed) {
    ret->i = alibi_slopes_mixed(a[0].p, (int)a[1].i);
}
#endif
