// xalloc.c -- allocation that succeeds or stops the program.
#include "program/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void out_of_memory(const char *program, size_t bytes) {
    fprintf(stderr, "%s: out of memory (%zu bytes)\n", program, bytes);
    exit(1);
}

void *xmalloc(const char *program, size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) out_of_memory(program, bytes);
    return p;
}

float *xfloats(const char *program, size_t count) {
    if (count > SIZE_MAX / sizeof(float)) out_of_memory(program, SIZE_MAX);
    float *p = calloc(count ? count : 1, sizeof(float));
    if (!p) out_of_memory(program, count * sizeof(float));
    return p;
}

void xok(const char *program, int rc, const char *what) {
    if (rc == 0) return;
    fprintf(stderr, "%s: %s failed (out of memory?)\n", program, what);
    exit(1);
}
