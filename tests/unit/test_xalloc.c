// test_xalloc.c -- allocation for programs: succeed, or stop with status 1.
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>

#include "program/xalloc.h"

Test(xalloc, xfloats_is_zeroed) {
    float *x = xfloats("test", 1000);
    for (int i = 0; i < 1000; i++) cr_assert_eq(x[i], 0.0f);
    free(x);
}

Test(xalloc, zero_sizes_give_valid_pointers) {
    void *p = xmalloc("test", 0);
    float *f = xfloats("test", 0);
    cr_assert_not_null(p);
    cr_assert_not_null(f);
    free(p);
    free(f);
}

Test(xalloc, xok_passes_zero) {
    xok("test", 0, "nothing");
}

// count * sizeof(float) overflowing size_t is out of memory, not a small buffer.
Test(xalloc, overflowing_count_exits_1, .exit_code = 1) {
    float *x = xfloats("test", SIZE_MAX / 2);
    free(x);
}

Test(xalloc, failed_call_exits_1, .exit_code = 1) {
    xok("test", -1, "something");
}
