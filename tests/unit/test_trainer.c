// test_trainer.c -- the trainer of train/trainer.h on a toy model: gradients
// zeroed once per step, every batch once per epoch in a shuffled order, the
// schedule's steps, the loss falling, refusals; and no allocation during a
// training step after the first, for the trainer with each model of the book
// (malloc/calloc/realloc of this binary count calls while a step runs).
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "data/mirror.h"
#include "train/trainer.h"
#include "models/seq2seq.h"
#include "models/transformer.h"
#include "models/gpt.h"

// ---------------------------------------------------------------------------
// counting allocations: this binary's malloc, calloc and realloc count the
// calls made on the counting thread, then call glibc's own (not under ASan,
// which replaces the allocator itself).

#if !defined(__SANITIZE_ADDRESS__)
#define COUNTS_ALLOCATIONS 1
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *__libc_realloc(void *p, size_t n);
static _Thread_local int counting;
static _Thread_local long allocations;
void *malloc(size_t n) {
    allocations += counting;
    return __libc_malloc(n);
}
void *calloc(size_t n, size_t m) {
    allocations += counting;
    return __libc_calloc(n, m);
}
void *realloc(void *p, size_t n) {
    allocations += counting;
    return __libc_realloc(p, n);
}
#endif

// ---------------------------------------------------------------------------
// a toy model: P weights, batch k asks weight k % P toward target k; loss
// (w - target)^2 summed over the batch's one "token".

enum { P = 4, N_BATCHES = 6 };

typedef struct {
    trainer_t *tr;
    int visits[N_BATCHES];
    int dirty_grads;            // times backward found g not zeroed
    int fail_backward;          // make backward fail
    float targets[N_BATCHES];
} toy_t;

typedef struct {
    int k;
} toy_batch_t;

static toy_batch_t toy_batches[N_BATCHES];

static double toy_forward(void *self, const void *batch, int *count) {
    toy_t *t = self;
    const toy_batch_t *b = batch;
    float d = t->tr->w[b->k % P] - t->targets[b->k];
    *count = 1;
    return (double)d * d;
}

static int toy_backward(void *self, const void *batch, float scale) {
    toy_t *t = self;
    const toy_batch_t *b = batch;
    for (int i = 0; i < P; i++) t->dirty_grads += t->tr->g[i] != 0.0f;
    t->tr->g[b->k % P] += scale * 2 * (t->tr->w[b->k % P] - t->targets[b->k]);
    return t->fail_backward ? -1 : 0;
}

static const void *toy_train(void *self, int k) {
    toy_t *t = self;
    t->visits[k]++;
    return &toy_batches[k];
}

static const void *toy_val(void *self, int k) {
    (void)self;
    return &toy_batches[k];
}

static long steps_seen[256];
static int n_steps_seen;

static float spy_schedule(float peak, long k, long n, long w) {
    if (n_steps_seen < 256) steps_seen[n_steps_seen++] = k;
    return trainer_lr_linear(peak, k, n, w);
}

static trainer_config_t toy_config(int epochs) {
    return (trainer_config_t){.epochs = epochs, .lr = 0.3f, .schedule = spy_schedule,
                              .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f,
                              .clip = 5.0};
}

static void toy_setup(toy_t *toy, trainer_t *tr, trainer_model_t *m,
                      trainer_data_t *d) {
    memset(toy, 0, sizeof *toy);
    toy->tr = tr;
    for (int k = 0; k < N_BATCHES; k++) {
        toy_batches[k].k = k;
        toy->targets[k] = 1.0f + (float)(k % P);
    }
    *m = (trainer_model_t){
        .self = toy, .forward = toy_forward, .backward = toy_backward};
    *d = (trainer_data_t){.self = toy, .n_train = N_BATCHES, .n_val = N_BATCHES,
                          .train_batch = toy_train, .val_batch = toy_val};
    n_steps_seen = 0;
}

Test(trainer, every_batch_once_per_epoch_grads_zeroed_loss_falls) {
    enum { E = 20 };
    trainer_t tr;
    toy_t toy;
    trainer_model_t m;
    trainer_data_t d;
    trainer_config_t c = toy_config(E);
    cr_assert_eq(trainer_init(&tr, &c, P, N_BATCHES), 0);
    toy_setup(&toy, &tr, &m, &d);
    rng_t rng;
    rng_seed(&rng, 7);
    cr_assert_eq(trainer_run(&tr, &m, &d, &rng), 0);
    for (int k = 0; k < N_BATCHES; k++) cr_assert_eq(toy.visits[k], E);
    cr_assert_eq(toy.dirty_grads, 0, "backward found gradients not zeroed");
    cr_assert_eq(tr.epochs_run, E);
    cr_assert_eq(tr.step, (long)E * N_BATCHES);
    cr_assert_eq(n_steps_seen, E * N_BATCHES);
    for (int s = 0; s < n_steps_seen; s++) cr_assert_eq(steps_seen[s], s);
    cr_assert_lt(tr.train_loss[E - 1], tr.train_loss[0] / 4);
    cr_assert_lt(tr.val_loss[E - 1], tr.val_loss[0]);
    cr_assert_eq(tr.val_score[0], -1.0);   // no decode
    trainer_free(&tr);
}

Test(trainer, epochs_are_shuffled) {
    trainer_t tr;
    toy_t toy;
    trainer_model_t m;
    trainer_data_t d;
    trainer_config_t c = toy_config(1);
    cr_assert_eq(trainer_init(&tr, &c, P, N_BATCHES), 0);
    toy_setup(&toy, &tr, &m, &d);
    rng_t rng;
    rng_seed(&rng, 3);
    int changed = 0;
    for (int r = 0; r < 4; r++) {
        cr_assert_eq(trainer_run(&tr, &m, &d, &rng), 0);
        for (int k = 0; k < N_BATCHES; k++) changed += tr.perm[k] != k;
    }
    cr_assert_gt(changed, 0, "four epochs all in order 0..n-1");
    trainer_free(&tr);
}

Test(trainer, schedules) {
    cr_assert_float_eq(trainer_lr_linear(1.0f, 0, 10, 0), 1.0f, 1e-7);
    cr_assert_float_eq(trainer_lr_linear(1.0f, 5, 10, 0), 0.5f, 1e-7);
    cr_assert_float_eq(trainer_lr_warmup(1.0f, 0, 10, 4), 0.25f, 1e-7);
    cr_assert_float_eq(trainer_lr_warmup(1.0f, 3, 10, 4), 1.0f, 1e-7);
    cr_assert_float_eq(trainer_lr_warmup(1.0f, 7, 10, 4), 0.5f, 1e-7);
}

Test(trainer, refusals) {
    trainer_t tr;
    trainer_config_t c = toy_config(1);
    cr_assert_eq(trainer_init(&tr, &c, 0, 1), -1);
    cr_assert_eq(trainer_init(&tr, &c, 1, 0), -1);
    c.epochs = TRAINER_MAX_EPOCHS + 1;
    cr_assert_eq(trainer_init(&tr, &c, 1, 1), -1);
    c.epochs = 0;
    cr_assert_eq(trainer_init(&tr, &c, 1, 1), -1);
    c = toy_config(2);
    toy_t toy;
    trainer_model_t m;
    trainer_data_t d;
    cr_assert_eq(trainer_init(&tr, &c, P, N_BATCHES), 0);
    toy_setup(&toy, &tr, &m, &d);
    rng_t rng;
    rng_seed(&rng, 1);
    d.n_train = N_BATCHES - 1;   // not the count the buffers were made for
    cr_assert_eq(trainer_run(&tr, &m, &d, &rng), -1);
    d.n_train = N_BATCHES;
    toy.fail_backward = 1;
    cr_assert_eq(trainer_run(&tr, &m, &d, &rng), -1);
    trainer_free(&tr);
}

// ---------------------------------------------------------------------------
// allocations in a step of the real models

#ifdef COUNTS_ALLOCATIONS
// Allocations during the third step on the same batch (steps 1 and 2 may
// warm anything up).
static long allocations_in_step(trainer_t *tr, const trainer_model_t *m,
                                const void *batch) {
    int count;
    for (int s = 0; s < 2; s++) cr_assert_geq(trainer_step(tr, m, batch, &count), 0);
    allocations = 0;
    counting = 1;
    double loss = trainer_step(tr, m, batch, &count);
    counting = 0;
    cr_assert_geq(loss, 0);
    return allocations;
}

static void mirror_batch(mirror_split_t *s, mirror_batch_t *bb, int src_eos) {
    rng_t rng;
    rng_seed(&rng, 5);
    cr_assert_eq(mirror_split_make(s, 8, 0, &rng), 0);
    mirror_batch_fill(bb, s, s->order, 8, src_eos);
}

Test(trainer, no_allocation_in_a_seq2seq_step) {
    static mirror_batch_t bb;
    mirror_split_t s;
    mirror_batch(&s, &bb, 0);
    s2s_model_t md = {.cfg = {.v_src = MIRROR_V_SRC, .v_tgt = MIRROR_V_TGT, .e = 4,
                              .h = 6, .a = 5, .attention = 1, .b_max = 8,
                              .t_max = MIRROR_MAX_LEN, .u_max = MIRROR_MAX_LEN + 1}};
    trainer_config_t c = toy_config(1);
    trainer_t tr;
    cr_assert_eq(trainer_init(&tr, &c, s2s_param_count(&md.cfg), 1), 0);
    rng_t rng;
    rng_seed(&rng, 1);
    s2s_init(tr.w, &md.cfg, &rng);
    s2s_bind(&md.p, tr.w, &md.cfg);
    s2s_bind(&md.g, tr.g, &md.cfg);
    md.work = s2s_work_new(&md.cfg);
    cr_assert_not_null(md.work);
    trainer_model_t m = {.self = &md, .forward = s2s_model_forward,
                         .backward = s2s_model_backward};
    cr_assert_eq(allocations_in_step(&tr, &m, &bb.bt), 0);
    s2s_work_free(md.work);
    trainer_free(&tr);
    mirror_split_free(&s);
}

Test(trainer, no_allocation_in_a_transformer_step) {
    static mirror_batch_t bb;
    mirror_split_t s;
    mirror_batch(&s, &bb, 1);
    tf_model_t md = {.cfg = {.v_src = MIRROR_V_SRC + 1, .v_tgt = MIRROR_V_TGT,
                             .d_model = 8, .n_heads = 2, .d_ff = 16, .n_enc = 1,
                             .n_dec = 1, .b_max = 8, .t_max = MIRROR_MAX_LEN + 1,
                             .u_max = MIRROR_MAX_LEN + 1}};
    trainer_config_t c = toy_config(1);
    trainer_t tr;
    cr_assert_eq(trainer_init(&tr, &c, tf_param_count(&md.cfg), 1), 0);
    rng_t rng;
    rng_seed(&rng, 1);
    tf_init(tr.w, &md.cfg, &rng);
    tf_bind(&md.p, tr.w, &md.cfg);
    tf_bind(&md.g, tr.g, &md.cfg);
    md.work = tf_work_new(&md.cfg);
    cr_assert_not_null(md.work);
    trainer_model_t m = {.self = &md, .forward = tf_model_forward,
                         .backward = tf_model_backward};
    cr_assert_eq(allocations_in_step(&tr, &m, &bb.bt), 0);
    tf_work_free(md.work);
    trainer_free(&tr);
    mirror_split_free(&s);
}
Test(trainer, no_allocation_in_a_gpt_step) {
    gpt_model_t md = {.cfg = {.V = 11, .C = 8, .L = 2, .NH = 4, .NKV = 2, .F = 6,
                              .B_max = 2, .T_max = 5, .rope_base = 10000.0}};
    int tokens[2 * 6];
    for (int i = 0; i < 12; i++) tokens[i] = (3 * i + 1) % 11;
    gpt_batch_t bt = {.B = 2, .T = 5, .tokens = tokens};
    trainer_config_t c = toy_config(1);
    trainer_t tr;
    cr_assert_eq(trainer_init(&tr, &c, gpt_param_count(&md.cfg), 1), 0);
    rng_t rng;
    rng_seed(&rng, 1);
    gpt_init(tr.w, &md.cfg, &rng);
    gpt_bind(&md.p, tr.w, &md.cfg);
    gpt_bind(&md.g, tr.g, &md.cfg);
    md.work = gpt_work_new(&md.cfg);
    cr_assert_not_null(md.work);
    trainer_model_t m = {.self = &md, .forward = gpt_model_forward,
                         .backward = gpt_model_backward};
    cr_assert_eq(allocations_in_step(&tr, &m, &bt), 0);
    gpt_work_free(md.work);
    trainer_free(&tr);
}
#endif

// ---------------------------------------------------------------------------
// the loss curve as the figures read it

Test(trainer, write_curve_is_one_line_an_epoch_run) {
    trainer_t t;
    memset(&t, 0, sizeof t);
    t.epochs_run = 2;   // a third epoch's numbers are not written
    const double train[3] = {3.25, 0.015625, 9}, val[3] = {2.5, 0.0078125, 9};
    const double score[3] = {0.0, 0.9375, 9};
    for (int e = 0; e < 3; e++)
        t.train_loss[e] = train[e], t.val_loss[e] = val[e], t.val_score[e] = score[e];
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    trainer_write_curve(f, &t);
    rewind(f);
    char got[128] = {0};
    size_t n = fread(got, 1, sizeof got - 1, f);
    fclose(f);
    cr_assert_str_eq(got, "1 3.25000 2.50000 0.0000\n2 0.01562 0.00781 0.9375\n",
                     "%zu bytes: %s", n, got);
    trainer_write_curve(NULL, &t);   // nothing, no crash
}
