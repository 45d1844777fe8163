// views.h -- views into one flat buffer, handed out in order: how a model lays
// its parameters over one buffer (models/transformer.c, models/seq2seq.c). The
// same walk with no buffer counts the floats, so a layout is written once.
#ifndef VIEWS_H
#define VIEWS_H

typedef struct {
    float *buf;   // the buffer, or NULL: count only
    long used;    // floats handed out so far
} views_t;

// The next n floats of v->buf (NULL when v->buf is NULL); v->used grows by n.
// n < 0 counts as 0.
float *views_take(views_t *v, long n);

#endif
