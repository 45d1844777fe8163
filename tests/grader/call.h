// call.h -- how a graded test calls a graded function across two processes.
//
// The judge (a Criterion test binary with no student code in it) holds the
// reference library with every graded function replaced by a proxy; the proxy
// sends the arguments over a pipe to the runner (the student's library, our
// main, a syscall filter, an unprivileged user), which calls the student's
// function and sends back every buffer. The judge checks the guard zones around
// each buffer and copies the results out, so the test reads them as if it had
// called the function itself. A call that does not come back (exit, exec, crash,
// a forbidden system call, silence past the deadline) fails the test.
//
// A task's file tests/grader/calls/FUNCTION.c holds both halves:
//   #ifdef GRADER_JUDGE   the proxy, with the function's own prototype
//   #else                 GRADER_SHIM(FUNCTION) { FUNCTION(from the args); }
#ifndef GRADER_CALL_H
#define GRADER_CALL_H

#include <stddef.h>
#include <stdint.h>

// One argument: a scalar (int or float, by value) or a buffer of bytes.
// A buffer travels in both directions unless const; its guard zones are checked
// whatever its direction, and a const buffer must come back unchanged.
typedef struct {
    int kind;            // GRADER_INT, GRADER_REAL, GRADER_BUF, GRADER_CBUF
    int64_t i;
    double d;
    void *p;
    size_t bytes;
} grader_arg;

enum { GRADER_INT = 1, GRADER_REAL = 2, GRADER_BUF = 3, GRADER_CBUF = 4 };

#define G_INT(v) ((grader_arg){.kind = GRADER_INT, .i = (int64_t)(v)})
#define G_REAL(v) ((grader_arg){.kind = GRADER_REAL, .d = (double)(v)})
#define G_BUF(ptr, n) ((grader_arg){.kind = GRADER_BUF, .p = (void *)(ptr), \
                                    .bytes = (ptr) ? (size_t)(n) * sizeof *(ptr) : 0})
#define G_CBUF(ptr, n) ((grader_arg){.kind = GRADER_CBUF, .p = (void *)(ptr), \
                                     .bytes = (ptr) ? (size_t)(n) * sizeof *(ptr) : 0})

// A count that may be zero or negative (a test of bad sizes) as a buffer length.
static inline size_t grader_n(long long v) { return v > 0 ? (size_t)v : 0; }
#define GN(v) grader_n((long long)(v))

// What a call returns: an int or a float, whichever the function returns.
typedef struct {
    int64_t i;
    double d;
} grader_ret;

// Judge side: call FUNCTION in the runner with args (n of them); fails the
// current Criterion test unless the runner answers within the deadline with
// every guard zone intact and every const buffer unchanged.
grader_ret grader_call(const char *function, grader_arg *args, int n);

// Runner side: a shim reads its arguments by position and sets *ret.
typedef void grader_shim_fn(grader_arg *a, grader_ret *ret);
#define GRADER_SHIM(fn) void grader_shim_##fn(grader_arg *a, grader_ret *ret)

#endif
