// trainer.c -- the training loop of chapters 8, 9 and 10.
#include "train/trainer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

float trainer_lr_linear(float peak, long k, long n, long w) {
    (void)w;
    if (n < 1 || k < 0 || k >= n) return 0.0f;
    return peak * (1.0f - (float)k / (float)n);
}

// snippet: schedule
// The learning rate at step k of n: a linear warm-up over the first w steps
// (Adam's second-moment estimates start at zero and are noisy: full steps
// too early send a post-norm Transformer astray), then a linear decay to zero.
float trainer_lr_warmup(float peak, long k, long n, long w) {
    if (n < 1 || k < 0 || k >= n) return 0.0f;
    if (k < w) return peak * (float)(k + 1) / (float)w;
    return peak * (float)(n - k) / (float)(n - w);
}
// end snippet

int trainer_init(trainer_t *t, const trainer_config_t *c, long n_params,
                 int n_batches) {
    if (n_params < 1 || n_batches < 1 || c->epochs < 1 ||
        c->epochs > TRAINER_MAX_EPOCHS)
        return -1;
    memset(t, 0, sizeof *t);
    t->cfg = *c;
    size_t n = (size_t)n_params;
    t->w = calloc(n, sizeof(float));
    t->g = calloc(n, sizeof(float));
    t->m = calloc(n, sizeof(float));
    t->v = calloc(n, sizeof(float));
    t->perm = malloc((size_t)n_batches * sizeof(int));
    if (!t->w || !t->g || !t->m || !t->v || !t->perm) {
        trainer_free(t);
        return -1;
    }
    t->n = n_params;
    t->n_perm = n_batches;
    t->total = (long)c->epochs * n_batches;
    t->opt = (optim_adam_t){.lr = c->lr, .beta1 = c->beta1, .beta2 = c->beta2,
                            .eps = c->eps, .weight_decay = c->weight_decay,
                            .decay = c->decay,
                            .m = t->m, .v = t->v, .n = n};
    return 0;
}

void trainer_free(trainer_t *t) {
    free(t->w);
    free(t->g);
    free(t->m);
    free(t->v);
    free(t->perm);
    t->w = t->g = t->m = t->v = NULL;
    t->perm = NULL;
}

// snippet: train_step
// One mini-batch: zero the gradients once, forward, backward (the model adds
// into g), clip, AdamW at the schedule's rate. Returns the summed loss.
double trainer_step(trainer_t *t, const trainer_model_t *m, const void *batch,
                    int *count) {
    const trainer_config_t *c = &t->cfg;
    memset(t->g, 0, (size_t)t->n * sizeof(float));     // zero once
    double loss = m->forward(m->self, batch, count);
    if (*count <= 0 || m->backward(m->self, batch, 1.0f / (float)*count) != 0) {
        *count = 0;
        return -1.0;
    }
    optim_clip_norm(t->g, (size_t)t->n, c->clip);
    t->opt.lr = c->schedule ? c->schedule(c->lr, t->step, t->total, c->warmup) : c->lr;
    optim_adam_step(&t->opt, t->w, t->g);
    t->step++;
    return loss;
}
// end snippet

double trainer_val_loss(const trainer_model_t *m, const trainer_data_t *d) {
    double sum = 0.0;
    long count = 0;
    for (int k = 0; k < d->n_val; k++) {
        int c;
        sum += m->forward(m->self, d->val_batch(d->self, k), &c);
        count += c;
    }
    return count > 0 ? sum / (double)count : NAN;
}

// perm <- 0..n-1 in a random order (Fisher-Yates, one draw per position).
static void shuffle(int *perm, int n, rng_t *rng) {
    for (int k = 0; k < n; k++) perm[k] = k;
    for (int k = n - 1; k > 0; k--) {
        int j = (int)(rng_next(rng) % (uint64_t)(k + 1)), tmp = perm[k];
        perm[k] = perm[j];
        perm[j] = tmp;
    }
}

static double seconds_since(const trainer_t *t, double t0) {
    return t->cfg.clock ? t->cfg.clock() - t0 : 0.0;
}

// One epoch of shuffled training batches; returns the mean loss per token,
// or -1 if a step failed.
static double train_epoch(trainer_t *t, const trainer_model_t *m,
                          const trainer_data_t *d, rng_t *rng, progress_t *pr,
                          double t0) {
    shuffle(t->perm, t->n_perm, rng);
    double sum = 0.0;
    long count = 0;
    for (int k = 0; k < t->n_perm; k++) {
        int c;
        double loss = trainer_step(t, m, d->train_batch(d->self, t->perm[k]), &c);
        if (c == 0) return -1.0;
        sum += loss;
        count += c;
        if (t->cfg.progress) {
            pr->batch = k;
            pr->loss = sum / (double)count;
            pr->seconds = seconds_since(t, t0);
            t->cfg.progress(t->cfg.progress_ctx, pr);
        }
    }
    return sum / (double)count;
}

int trainer_run(trainer_t *t, const trainer_model_t *m, const trainer_data_t *d,
                rng_t *rng) {
    if (d->n_train != t->n_perm) return -1;
    double t0 = t->cfg.clock ? t->cfg.clock() : 0.0;
    progress_t pr = {
        .label = m->label, .epochs = t->cfg.epochs, .n_batches = t->n_perm};
    for (int ep = 0; ep < t->cfg.epochs; ep++) {
        pr.epoch = ep + 1;
        pr.end = 0;
        double loss = train_epoch(t, m, d, rng, &pr, t0);
        if (loss < 0) return -1;
        t->train_loss[ep] = loss;
        t->val_loss[ep] = trainer_val_loss(m, d);
        t->val_score[ep] = m->decode ? m->decode(m->decode_ctx) : -1.0;
        t->epochs_run = ep + 1;
        if (t->cfg.progress) {
            pr.end = 1;
            pr.loss = loss;
            pr.val_loss = t->val_loss[ep];
            pr.val_score = t->val_score[ep];
            pr.seconds = seconds_since(t, t0);
            t->cfg.progress(t->cfg.progress_ctx, &pr);
        }
    }
    t->seconds = seconds_since(t, t0);
    return 0;
}

void trainer_write_curve(FILE *f, const trainer_t *t) {
    if (!f) return;
    for (int ep = 0; ep < t->epochs_run; ep++)
        fprintf(f, "%d %.5f %.5f %.4f\n", ep + 1, t->train_loss[ep], t->val_loss[ep],
                t->val_score[ep]);
}
