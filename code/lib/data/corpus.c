// corpus.c -- read, pin and split the chapter 10 text.
#include "data/corpus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

uint64_t corpus_fnv1a64(const unsigned char *b, size_t n) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];                        // xor in the byte,
        h *= UINT64_C(0x100000001b3);     // then multiply by the FNV prime
    }
    return h;
}

size_t corpus_next_record(const unsigned char *text, size_t n, size_t start) {
    size_t i = start;
    while (i < n) {
        size_t eol = i;                   // the line [i, eol) and its '\n'
        while (eol < n && text[eol] != '\n') eol++;
        size_t next = eol < n ? eol + 1 : n;
        if (eol - i == 1 && text[i] == '%') return next;
        i = next;
    }
    return n;
}

const char *corpus_error(int rc) {
    switch (rc) {
    case CORPUS_OK: return "ok";
    case CORPUS_MISSING:
        return "cannot read the corpus file (install: apt-get install fortunes)";
    case CORPUS_CHANGED:
        return "the corpus file is not the pinned one (size or FNV-1a differs)";
    case CORPUS_NOMEM: return "out of memory";
    default: return "bad argument";
    }
}

void corpus_free(corpus_t *c) {
    if (!c) return;
    free(c->text);
    memset(c, 0, sizeof *c);
}

int corpus_read(corpus_t *c, const char *path, long want_bytes, uint64_t want_fnv) {
    if (!c) return CORPUS_BAD_ARG;
    memset(c, 0, sizeof *c);
    if (!path) return CORPUS_BAD_ARG;
    FILE *f = fopen(path, "rb");
    if (!f) return CORPUS_MISSING;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap + 1);
    int rc = buf ? CORPUS_OK : CORPUS_NOMEM;
    while (rc == CORPUS_OK) {
        if (n == cap) {
            unsigned char *more =
                cap < ((size_t)1 << 30) ? realloc(buf, 2 * cap + 1) : NULL;
            if (!more) { rc = CORPUS_NOMEM; break; }
            buf = more;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) rc = CORPUS_MISSING;   // a directory, an unreadable file
            break;
        }
    }
    fclose(f);
    if (rc == CORPUS_OK) {
        buf[n] = 0;
        c->fnv = corpus_fnv1a64(buf, n);
        if (want_bytes >= 0 && ((size_t)want_bytes != n || c->fnv != want_fnv))
            rc = CORPUS_CHANGED;
    }
    if (rc != CORPUS_OK) {
        free(buf);
        memset(c, 0, sizeof *c);
        return rc;
    }
    c->text = buf;
    c->n = n;
    for (size_t i = 0; i < n; i = corpus_next_record(buf, n, i)) c->n_records++;
    return CORPUS_OK;
}

void corpus_split_free(corpus_split_t *s) {
    if (!s) return;
    free(s->train);
    free(s->held);
    memset(s, 0, sizeof *s);
}

int corpus_split(const corpus_t *c, double held_fraction, uint64_t seed,
                 corpus_split_t *s) {
    if (!s) return CORPUS_BAD_ARG;
    memset(s, 0, sizeof *s);
    if (!c || (c->n > 0 && !c->text) || c->n_records < 0 || !(held_fraction >= 0.0) ||
        held_fraction > 1.0)
        return CORPUS_BAD_ARG;
    int r = c->n_records;
    int n_held = (int)(held_fraction * r + 0.5);
    int *order = malloc((size_t)(r ? r : 1) * sizeof(int));
    unsigned char *is_held = calloc((size_t)(r ? r : 1), 1);
    s->train = malloc(c->n + 1);
    s->held = malloc(c->n + 1);
    if (!order || !is_held || !s->train || !s->held) {
        free(order);
        free(is_held);
        corpus_split_free(s);
        return CORPUS_NOMEM;
    }
    rng_t rng;
    rng_seed(&rng, seed);
    for (int i = 0; i < r; i++) order[i] = i;
    for (int i = r - 1; i > 0; i--) {           // Fisher-Yates
        int j = (int)(rng_next(&rng) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < n_held; i++) is_held[order[i]] = 1;
    int k = 0;
    for (size_t i = 0; i < c->n; k++) {
        size_t end = corpus_next_record(c->text, c->n, i);
        if (is_held[k]) {
            memcpy(s->held + s->n_held, c->text + i, end - i);
            s->n_held += end - i;
            s->held_records++;
        } else {
            memcpy(s->train + s->n_train, c->text + i, end - i);
            s->n_train += end - i;
            s->train_records++;
        }
        i = end;
    }
    free(order);
    free(is_held);
    return CORPUS_OK;
}
