// trainer.h -- one training loop for every model of the book (chapters 8-10).
//
// A model is three functions over an opaque self (trainer_model_t): forward
// (summed loss of a batch and the number of tokens it counted), backward
// (gradient of scale * that loss, accumulated into the gradient buffer) and
// an optional decode (a score of the held-out data, e.g. exact match). The
// data is two numbered sets of batches (trainer_data_t): any task, any token
// stream, as long as batch k can be fetched. The trainer owns the flat
// parameter, gradient and Adam-moment buffers (P floats each), allocated once;
// the model binds its views into w and g.
//
// One step (trainer_step):  zero g once -> forward -> backward -> clip -> AdamW
// -> the schedule's next learning rate. One epoch: the training batches in a
// fresh random order, then the validation loss and score. The loss curve stays
// in the trainer (train_loss, val_loss, val_score per epoch) for the program to
// print and write as figure data. It never prints: progress goes to a callback
// (program/progress.h has one for stderr), and time is read from a clock the
// caller passes (program/clock.h), so the library itself reads no clock.
//
// P = parameters, E = epochs.
#ifndef TRAINER_H
#define TRAINER_H

#include <stdio.h>

#include "base/rng.h"
#include "program/progress.h"
#include "train/optim.h"

enum { TRAINER_MAX_EPOCHS = 64 };

typedef struct {
    void *self;
    // summed loss of batch; *count = the tokens it summed over (0: bad batch)
    double (*forward)(void *self, const void *batch, int *count);
    // g += d(scale * loss of the last forward on batch) / dw; 0 = ok, -1 = failed
    int (*backward)(void *self, const void *batch, float scale);
    // a score of the held-out data (higher is better), or NULL: none
    double (*decode)(void *decode_ctx);
    void *decode_ctx;
    const char *label;   // the model's name in progress lines, or NULL
} trainer_model_t;

typedef struct {
    void *self;
    int n_train, n_val;   // batches in one epoch of each set
    const void *(*train_batch)(void *self, int k);   // k in 0..n_train-1
    const void *(*val_batch)(void *self, int k);     // k in 0..n_val-1
} trainer_data_t;

// The learning rate at step k of n, for the peak rate and w warm-up steps.
typedef float (*trainer_schedule_fn)(float peak, long k, long n, long w);

typedef struct {
    int epochs;                                // 1..TRAINER_MAX_EPOCHS
    float lr;                                  // peak learning rate
    long warmup;                               // steps, for the schedule
    trainer_schedule_fn schedule;              // NULL: lr throughout
    float beta1, beta2, eps, weight_decay;     // AdamW (weight_decay 0: Adam)
    const unsigned char *decay;                // (P,) 1 = decays; NULL: all do
    double clip;                               // gradient-norm limit (<= 0: none)
    double (*clock)(void);                     // seconds, or NULL: not timed
    void (*progress)(void *ctx, const progress_t *p);   // or NULL
    void *progress_ctx;
} trainer_config_t;

typedef struct {
    trainer_config_t cfg;
    long n;                       // P
    float *w, *g, *m, *v;         // (P,) parameters, gradients, Adam moments
    optim_adam_t opt;
    long step, total;             // steps taken; steps in the whole run
    int *perm;                    // (n_train,) this epoch's batch order
    int n_perm;
    // the loss curve, per epoch: mean training and validation loss per token,
    // and the decode score (-1 without decode)
    double train_loss[TRAINER_MAX_EPOCHS], val_loss[TRAINER_MAX_EPOCHS];
    double val_score[TRAINER_MAX_EPOCHS];
    int epochs_run;
    double seconds;               // by cfg.clock: training and validation
} trainer_t;

// Schedules. linear: peak (1 - k/n), falling to 0 over the run (w unused).
// warmup: a linear rise over the first w steps, peak (k+1)/w, then a linear
// decay to 0, peak (n-k)/(n-w) (Adam's second moments start at zero and are
// noisy: full steps too early send a post-norm Transformer astray).
// k outside 0..n-1 (no such step, n < 1 included): 0.
float trainer_lr_linear(float peak, long k, long n, long w);
float trainer_lr_warmup(float peak, long k, long n, long w);

// Allocate the buffers for n_params parameters and n_batches training batches
// per epoch: w, g, m, v start at 0. Returns 0; -1 if a size is below 1, the
// epochs are outside 1..TRAINER_MAX_EPOCHS, or memory ran out (then nothing
// stays allocated).
int trainer_init(trainer_t *t, const trainer_config_t *c, long n_params, int n_batches);
void trainer_free(trainer_t *t);

// One step on batch: returns the summed loss and sets *count; -1 (and *count
// = 0) if the forward counted nothing or the backward failed.
double trainer_step(trainer_t *t, const trainer_model_t *m, const void *batch,
                    int *count);

// Mean loss per token over the validation batches (forward only); NaN if
// they count no token.
double trainer_val_loss(const trainer_model_t *m, const trainer_data_t *d);

// cfg.epochs epochs of d's training batches, each shuffled with rng, then the
// validation loss and decode score. Fills the loss curve and seconds.
// Returns 0; -1 if d's batch count differs from trainer_init's or a step failed.
int trainer_run(trainer_t *t, const trainer_model_t *m, const trainer_data_t *d,
                rng_t *rng);

// The loss curve into f, as the book's figures read it: a line an epoch run,
// "epoch train_loss val_loss val_score" (%d %.5f %.5f %.4f). Nothing if f is NULL.
void trainer_write_curve(FILE *f, const trainer_t *t);

#endif
