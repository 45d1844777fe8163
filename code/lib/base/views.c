// views.c -- see views.h.
#include "base/views.h"

#include <stddef.h>

float *views_take(views_t *v, long n) {
    float *r = v->buf ? v->buf + v->used : NULL;
    v->used += n > 0 ? n : 0;
    return r;
}
