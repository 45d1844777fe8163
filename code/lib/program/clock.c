// clock.c -- wall-clock and processor time, in seconds.
#include "program/clock.h"

#include <time.h>

double clock_wall_seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double clock_cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }
