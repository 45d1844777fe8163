// progress.h -- one line of training progress on stderr, for a person watching.
//
// The trainer (train/trainer.h) reports through a callback and never prints;
// a program passes progress_print (with its name as ctx) to see the line.
#ifndef PROGRAM_PROGRESS_H
#define PROGRAM_PROGRESS_H

// Where a training run is: inside epoch `epoch` (1-based) at batch `batch`, or
// at its end (end = 1: val_loss and val_score are set, val_score < 0 if none).
typedef struct {
    const char *label;       // the model's name, or NULL
    int epoch, epochs, batch, n_batches, end;
    double loss, val_loss, val_score, seconds;
} progress_t;

// Prints p on stderr as "PROG: [label] epoch e/E ..." when stderr is a
// terminal (every 50th batch and every epoch's end); nothing otherwise.
// ctx is the program's name (const char *).
void progress_print(void *ctx, const progress_t *p);

#endif
