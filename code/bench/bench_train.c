// bench_train.c -- how fast do the book's models train? (make bench, never make test)
//
// One training step of each trained model of the book, on the book's shapes,
// exactly as the chapters take it (trainer_step of train/trainer.h: zero the
// gradients, forward, backward, clip, Adam or AdamW):
//
//   seq2seq      chapter 8: GRU encoder-decoder with additive attention, E 16,
//                H = A = 32, a batch of 16 sentences of SENT_LEN words
//   transformer  chapter 9: post-norm encoder-decoder, d_model 32, 4 heads,
//                d_ff 64, 2 + 2 blocks, the same batch plus the end-of-source mark
//   gpt          chapter 10: V 512, C 64, 2 layers, 4 query heads, 2 key/value
//                heads, F 172, a batch of 2 windows of 64 tokens
//
// and chapter 10's GPT decoding 64 tokens one at a time, with the key/value
// cache (gpt_cache_step) and recomputing every prefix (gpt_next_logits).
// code/bench/torch_train.py times the same steps in PyTorch. One tab-separated
// line per measurement:
//
//   model  case  threads  tokens  median_seconds  tokens_per_s  repeats
//
// tokens: the target tokens one step predicts (the sum of the loss is over
// them), or the tokens decoded. The book's batches are sorted by length, so
// nearly every sentence of a batch has the same length: SENT_LEN, the middle of
// data/mirror.h's 4..30 words, stands for them all. Each measurement: WARM_UP
// untimed steps, then at least MIN_REPS timed ones, more while they take under
// a second (--quick: a tenth), the median reported. Token ids are random: the
// time of a step does not depend on them.
//
// Built by code/bench/bench.sh with the kernels' flags; one thread (the models
// have no OpenMP loops).
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/rng.h"
#include "data/mirror.h"
#include "models/gpt.h"
#include "models/seq2seq.h"
#include "models/transformer.h"
#include "train/trainer.h"

enum { SENT_LEN = 17, BATCH = 16, WARM_UP = 2, MIN_REPS = 5, MAX_REPS = 999 };

static double budget = 1.0;   // seconds of timed steps per measurement

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// A thing to time: run(self) does one step; returns 0, or -1 on failure.
typedef struct {
    const char *model, *what;
    int tokens;
    int (*run)(void *self);
    void *self;
} timed_t;

// Time one step as said at the top; prints the line. Returns 0; -1 on failure.
static int measure(const timed_t *m) {
    static double t[MAX_REPS];
    for (int k = 0; k < WARM_UP; k++)
        if (m->run(m->self) != 0) return -1;
    double spent = 0.0;
    int reps = 0;
    while (reps < MIN_REPS || (reps < MAX_REPS && spent < budget)) {
        double t0 = now();
        if (m->run(m->self) != 0) return -1;
        t[reps] = now() - t0;
        spent += t[reps++];
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    printf("%s\t%s\t1\t%d\t%.6g\t%.1f\t%d\n", m->model, m->what, m->tokens, med,
           m->tokens / med, reps);
    fflush(stdout);
    return 0;
}

// ---------------------------------------------------------------------------
// chapters 8 and 9: a batch of BATCH mirror sentences of SENT_LEN words

typedef struct {
    int src[BATCH * (SENT_LEN + 1)], tin[BATCH * (SENT_LEN + 1)];
    int tout[BATCH * (SENT_LEN + 1)];
    unsigned char mask[BATCH * (SENT_LEN + 1)];
    s2s_batch_t bt;
} pairs_t;

// src_eos 1: every source ends with MIRROR_SRC_EOS (chapter 9).
static void pairs_make(pairs_t *p, int src_eos, rng_t *rng) {
    const int t_len = SENT_LEN + src_eos, u_len = SENT_LEN + 1;
    for (int b = 0; b < BATCH; b++) {
        int words[SENT_LEN];
        for (int j = 0; j < SENT_LEN; j++) {
            words[j] = 1 + (int)(rng_next(rng) % MIRROR_WORDS);
            p->src[b * t_len + j] = words[j];
        }
        if (src_eos) p->src[b * t_len + SENT_LEN] = MIRROR_SRC_EOS;
        for (int j = 0; j < t_len; j++) p->mask[b * t_len + j] = 1;
        int tgt[SENT_LEN];
        mirror_translate(words, SENT_LEN, tgt);
        p->tin[b * u_len] = S2S_BOS;
        for (int j = 0; j < SENT_LEN; j++) {
            p->tin[b * u_len + j + 1] = tgt[j];
            p->tout[b * u_len + j] = tgt[j];
        }
        p->tout[b * u_len + SENT_LEN] = S2S_EOS;
    }
    p->bt = (s2s_batch_t){.b = BATCH, .t_len = t_len, .u_len = u_len, .src = p->src,
                          .src_mask = p->mask, .tgt_in = p->tin, .tgt_out = p->tout};
}

// A model in the trainer, and the batch it steps on.
typedef struct {
    trainer_t tr;
    trainer_model_t m;
    const void *batch;
} stepper_t;

static int step(void *self) {
    stepper_t *s = self;
    int count;
    return trainer_step(&s->tr, &s->m, s->batch, &count) < 0 ? -1 : 0;
}

// The trainer of a model of n parameters, with Adam's settings of its chapter.
static int stepper_init(stepper_t *s, long n, float lr, float beta2, float eps) {
    trainer_config_t tc = {.epochs = 1, .lr = lr, .beta1 = 0.9f, .beta2 = beta2,
                           .eps = eps, .clip = 5.0};
    return trainer_init(&s->tr, &tc, n, 1);
}

// A model of chapter 8 or 9 as bench_mirror sets it up: its trainer model, the
// batch it steps on (chapter 9's sources end with a mark), Adam's settings of
// its chapter, and four calls on md: its parameter count, its weights' initial
// values, its views and workspace (0, or -1 without memory), their release.
typedef struct {
    const char *name;
    int src_eos;
    trainer_model_t m;
    float lr, beta2, eps;
    long (*count)(const void *md);
    void (*init)(void *md, float *w, rng_t *rng);
    int (*open)(void *md, float *w, float *g);
    void (*close)(void *md);
} mirror_model_t;

static int bench_mirror(const mirror_model_t *mm, rng_t *rng) {
    static pairs_t pairs;
    pairs_make(&pairs, mm->src_eos, rng);
    stepper_t s = {.m = mm->m, .batch = &pairs.bt};
    if (stepper_init(&s, mm->count(mm->m.self), mm->lr, mm->beta2, mm->eps) != 0)
        return -1;
    mm->init(mm->m.self, s.tr.w, rng);
    int rc = mm->open(mm->m.self, s.tr.w, s.tr.g);
    timed_t t = {mm->name, "train_step", BATCH * (SENT_LEN + 1), step, &s};
    if (rc == 0) rc = measure(&t);
    mm->close(mm->m.self);
    trainer_free(&s.tr);
    return rc;
}

static long s2s_count(const void *md) {
    return s2s_param_count(&((const s2s_model_t *)md)->cfg);
}
static void s2s_init_w(void *md, float *w, rng_t *rng) {
    s2s_init(w, &((s2s_model_t *)md)->cfg, rng);
}
static int s2s_open(void *self, float *w, float *g) {
    s2s_model_t *md = self;
    s2s_bind(&md->p, w, &md->cfg);
    s2s_bind(&md->g, g, &md->cfg);
    md->work = s2s_work_new(&md->cfg);
    return md->work ? 0 : -1;
}
static void s2s_close(void *md) { s2s_work_free(((s2s_model_t *)md)->work); }

static int bench_seq2seq(rng_t *rng) {
    s2s_model_t md = {.cfg = {.v_src = MIRROR_V_SRC, .v_tgt = MIRROR_V_TGT, .e = 16,
                              .h = 32, .a = 32, .attention = 1, .b_max = BATCH,
                              .t_max = SENT_LEN, .u_max = SENT_LEN + 1}};
    mirror_model_t mm = {"seq2seq", 0, {.self = &md, .forward = s2s_model_forward,
                                        .backward = s2s_model_backward},
                         0.008f, 0.999f, 1e-8f,
                         s2s_count, s2s_init_w, s2s_open, s2s_close};
    return bench_mirror(&mm, rng);
}

static long tf_count(const void *md) {
    return tf_param_count(&((const tf_model_t *)md)->cfg);
}
static void tf_init_w(void *md, float *w, rng_t *rng) {
    tf_init(w, &((tf_model_t *)md)->cfg, rng);
}
static int tf_open(void *self, float *w, float *g) {
    tf_model_t *md = self;
    tf_bind(&md->p, w, &md->cfg);
    tf_bind(&md->g, g, &md->cfg);
    md->work = tf_work_new(&md->cfg);
    return md->work ? 0 : -1;
}
static void tf_close(void *md) { tf_work_free(((tf_model_t *)md)->work); }

static int bench_transformer(rng_t *rng) {
    tf_model_t md = {.cfg = {.v_src = MIRROR_V_SRC + 1, .v_tgt = MIRROR_V_TGT,
                             .d_model = 32, .n_heads = 4, .d_ff = 64, .n_enc = 2,
                             .n_dec = 2, .b_max = BATCH, .t_max = SENT_LEN + 1,
                             .u_max = SENT_LEN + 1}};
    mirror_model_t mm = {"transformer", 1, {.self = &md, .forward = tf_model_forward,
                                            .backward = tf_model_backward},
                         0.007f, 0.98f, 1e-9f, tf_count, tf_init_w, tf_open, tf_close};
    return bench_mirror(&mm, rng);
}

// ---------------------------------------------------------------------------
// chapter 10: the GPT, training and decoding

enum { GPT_B = 2, GPT_T = 64 };

typedef struct {
    gpt_model_t *md;
    gpt_cache_t *cache;
    const int *tokens;   // (GPT_T,)
    float *logits;       // (V,)
} decode_t;

static int decode_cached(void *self) {
    decode_t *d = self;
    gpt_cache_reset(d->cache);
    for (int t = 0; t < GPT_T; t++)
        if (gpt_cache_step(&d->md->p, &d->md->cfg, d->cache, d->tokens[t], d->logits))
            return -1;
    return 0;
}

static int decode_full(void *self) {
    decode_t *d = self;
    for (int t = 0; t < GPT_T; t++)
        if (gpt_next_logits(&d->md->p, &d->md->cfg, d->tokens, t + 1, d->md->work,
                            d->logits))
            return -1;
    return 0;
}

// The three measurements of the GPT, its model and trainer set up.
static int gpt_measure(gpt_model_t *md, stepper_t *s, const int *tok) {
    decode_t d = {md, gpt_cache_new(&md->cfg), tok,
                  malloc(sizeof(float) * (size_t)md->cfg.V)};
    timed_t t[3] = {{"gpt", "train_step", GPT_B * GPT_T, step, s},
                    {"gpt", "decode_cache", GPT_T, decode_cached, &d},
                    {"gpt", "decode_full", GPT_T, decode_full, &d}};
    int rc = d.cache && d.logits ? 0 : -1;
    for (int k = 0; k < 3 && rc == 0; k++) rc = measure(&t[k]);
    gpt_cache_free(d.cache);
    free(d.logits);
    return rc;
}

static int bench_gpt(rng_t *rng) {
    static int tok[GPT_B * (GPT_T + 1)];
    for (int k = 0; k < GPT_B * (GPT_T + 1); k++) tok[k] = (int)(rng_next(rng) % 512);
    gpt_model_t md = {.cfg = {.V = 512, .C = 64, .L = 2, .NH = 4, .NKV = 2,
                              .F = (8 * 64 / 3 + 3) / 4 * 4, .B_max = GPT_B,
                              .T_max = GPT_T, .rope_base = 10000.0}};
    long n = gpt_param_count(&md.cfg);
    stepper_t s = {.m = {.self = &md, .forward = gpt_model_forward,
                         .backward = gpt_model_backward}};
    gpt_batch_t bt = {.B = GPT_B, .T = GPT_T, .tokens = tok};
    s.batch = &bt;
    trainer_config_t tc = {.epochs = 1, .lr = 3e-3f, .beta1 = 0.9f, .beta2 = 0.95f,
                           .eps = 1e-8f, .weight_decay = 0.1f, .clip = 1.0};
    unsigned char *decay = malloc((size_t)(n > 0 ? n : 1));
    if (n < 1 || !decay) return free(decay), -1;
    gpt_decay_mask(decay, &md.cfg);
    tc.decay = decay;
    if (trainer_init(&s.tr, &tc, n, 1) != 0) return free(decay), -1;
    gpt_init(s.tr.w, &md.cfg, rng);
    gpt_bind(&md.p, s.tr.w, &md.cfg);
    gpt_bind(&md.g, s.tr.g, &md.cfg);
    md.work = gpt_work_new(&md.cfg);
    int rc = md.work ? gpt_measure(&md, &s, tok) : -1;
    gpt_work_free(md.work);
    trainer_free(&s.tr);
    free(decay);
    return rc;
}

int main(int argc, char **argv) {
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--quick") != 0)) {
        fprintf(stderr, "usage: bench_train [--quick]\n");
        return 2;
    }
    if (argc == 2) budget = 0.1;
    rng_t rng;
    rng_seed(&rng, 42);
    printf("model\tcase\tthreads\ttokens\tmedian_seconds\ttokens_per_s\trepeats\n");
    const char *names[3] = {"seq2seq", "transformer", "gpt"};
    int (*const bench[3])(rng_t *) = {bench_seq2seq, bench_transformer, bench_gpt};
    for (int k = 0; k < 3; k++)
        if (bench[k](&rng) != 0) {
            fprintf(stderr, "bench_train: %s failed\n", names[k]);
            return 1;
        }
    return 0;
}
