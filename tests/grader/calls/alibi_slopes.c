// int alibi_slopes(slopes (heads,), heads)
#include "position/alibi.h"
#include "call.h"

#ifdef GRADER_JUDGE
int alibi_slopes(float *slopes, int heads) {
    grader_arg a[] = {G_BUF(slopes, GN(heads)), G_INT(heads)};
    return (int)grader_call("alibi_slopes", a, 2).i;
}
#else
GRADER_SHIM(alibi_slopes) {
    ret->i = alibi_slopes(a[0].p, (int)a[1].i);
}
#endif
