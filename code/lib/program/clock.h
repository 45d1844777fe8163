// clock.h -- the two clocks a program measures with.
#ifndef PROGRAM_CLOCK_H
#define PROGRAM_CLOCK_H

// Seconds of wall-clock time from an arbitrary start (C11 timespec_get, TIME_UTC).
double clock_wall_seconds(void);

// Seconds of processor time this process has used (C11 clock()).
double clock_cpu_seconds(void);

#endif
