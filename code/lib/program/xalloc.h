// xalloc.h -- allocation for chapter programs: succeed or stop the program.
//
// The library never exits; it returns an error code and lets its caller decide.
// A chapter program has nothing sensible to do without memory, so it calls
// these, which print "PROGRAM: out of memory (N bytes)" on stderr and exit with
// status 1. Not for code/lib outside program/.
#ifndef XALLOC_H
#define XALLOC_H

#include <stddef.h>

// bytes of uninitialised memory (bytes == 0 gives a valid, unique pointer).
void *xmalloc(const char *program, size_t bytes);

// count floats, all 0.0f; count * sizeof(float) overflowing is out of memory.
float *xfloats(const char *program, size_t count);

// The status of a library call that can fail only when memory runs out (its
// sizes are the program's own, so a size error is a bug): rc != 0 prints
// "PROGRAM: WHAT failed (out of memory?)" on stderr and exits 1.
//   xok(PROG, mha_alloc(&p, d, h), "mha_alloc");
void xok(const char *program, int rc, const char *what);

#endif
