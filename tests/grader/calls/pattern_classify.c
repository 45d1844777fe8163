// pattern_kind_t pattern_classify(const pattern_stats_t *s)
#include "attention/patterns.h"
#include "call.h"

#ifdef GRADER_JUDGE
pattern_kind_t pattern_classify(const pattern_stats_t *s) {
    grader_arg a[] = {G_CBUF(s, 1)};
    return (pattern_kind_t)grader_call("pattern_classify", a, 1).i;
}
#else
GRADER_SHIM(pattern_classify) {
    ret->i = (int64_t)pattern_classify(a[0].p);
}
#endif
