// wire.h -- the bytes the judge and the runner exchange (one machine, so native
// byte order). Request: wire_head, the function's name, then per argument a
// wire_arg followed, for a non-NULL buffer, by GUARD + bytes + GUARD bytes.
// (present: 0 NULL, 1 bytes follow, 2 + j the same buffer as argument j).
// Reply: wire_reply, then every buffer sent again with its guard zones.
#ifndef GRADER_WIRE_H
#define GRADER_WIRE_H

#include <stdint.h>

#define WIRE_MAGIC 0x31515247u // "GRQ1"
#define WIRE_REPLY 0x31535247u // "GRS1"
#define WIRE_GUARD 256         // bytes of guard zone each side of a buffer
#define WIRE_MAX_NAME 64
#define WIRE_MAX_ARGS 32

typedef struct {
    uint32_t magic, name_len, nargs;
} wire_head;

typedef struct {
    uint32_t kind, present;
    int64_t i;
    double d;
    uint64_t bytes;
} wire_arg;

typedef struct {
    uint32_t magic, pad;
    int64_t ret_i;
    double ret_d;
} wire_reply;

// g (WIRE_GUARD,) <- a pattern that differs per buffer and per side.
static inline void wire_fill_guard(unsigned char *g, unsigned salt) {
    for (int i = 0; i < WIRE_GUARD; i++)
        g[i] = (unsigned char)(0xA5 ^ (i * 7 + salt * 13));
}

#endif
