// v4f.h -- four floats as one value, for loops that must keep their sums.
//
// GCC's and Clang's vector extension: arithmetic on a v4f is element by
// element, so a vector holds four separate sums, each still taken one term at a
// time in a fixed order, exactly as a scalar loop would take it; the extension
// only makes the compiler keep the four in one register. Loads and stores go
// through memcpy (any alignment; compiled to one instruction).
#ifndef V4F_H
#define V4F_H

#include <string.h>

typedef float v4f __attribute__((vector_size(16)));

static inline v4f load4(const float *p) {
    v4f v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void store4(float *p, v4f v) { memcpy(p, &v, sizeof v); }
static inline v4f splat4(float x) { return (v4f){x, x, x, x}; }

#endif
