// progress.c -- training progress on stderr, only for a terminal.
#include "program/progress.h"

#include <stdio.h>
#include <unistd.h>

void progress_print(void *ctx, const progress_t *p) {
    if (!isatty(2) || (!p->end && p->batch % 50 != 0)) return;
    const char *prog = ctx, *label = p->label ? p->label : "";
    const char *sep = p->label ? " " : "";
    if (!p->end) {
        fprintf(stderr, "\r%s: %s%sepoch %d/%d batch %d/%d loss %.4f %5.1f s ", prog,
                label, sep, p->epoch, p->epochs, p->batch, p->n_batches, p->loss,
                p->seconds);
        return;
    }
    fprintf(stderr, "\r%s: %s%sepoch %d/%d loss %.4f val loss %.4f", prog, label, sep,
            p->epoch, p->epochs, p->loss, p->val_loss);
    if (p->val_score >= 0) fprintf(stderr, " val exact %.3f", p->val_score);
    fprintf(stderr, " %5.1f s\n", p->seconds);
}
