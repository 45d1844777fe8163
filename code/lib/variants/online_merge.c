// online_merge.c -- merging two online-softmax states.
#include "variants/online_merge.h"

#include <math.h>

void online_merge(online_state_t *a, const online_state_t *b) {
    int d_v = a->d_v;
    // BEGIN SOLUTION
    if (b->max == -INFINITY) return;   // b saw nothing
    float m = a->max > b->max ? a->max : b->max;
    double fa = a->max == -INFINITY ? 0.0 : exp((double)a->max - m);
    double fb = exp((double)b->max - m);
    a->sum = a->sum * fa + b->sum * fb;
    for (int c = 0; c < d_v; c++) a->acc[c] = a->acc[c] * fa + b->acc[c] * fb;
    a->max = m;
    // END SOLUTION
}
