// ch09_transformer.c -- chapter 9: the Transformer, trained in C on chapter
// 8's task.
//
// Builds the same sentences as chapter 8 (same seed, same splits), checks the
// Transformer's backward pass against finite differences, trains a small
// encoder-decoder Transformer (chapter 4's blocks, chapter 6's masks, chapter
// 7's sinusoidal positions) with Adam and a warm-up, then decodes the test
// sentences greedily with a key/value cache and reports what chapter 8
// reported for the GRU models: exact match, accuracy against length, where the
// cross-attention looks, examples, and time. The book's run also trains the
// same model again without the warm-up (same initial weights, same batches).
//
// Progress (epoch, loss, accuracy, time) goes to stderr only when stderr is a
// terminal. The trained weights go to DIR/weights.bin with --data DIR.
//
// Test args: --small
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "program/cli.h"
#include "program/clock.h"
#include "program/program.h"
#include "program/progress.h"
#include "program/report.h"
#include "program/xalloc.h"
#include "data/mirror.h"
#include "train/trainer.h"
#include "models/transformer.h"

static const char *PROG = "ch09_transformer";

enum { MAX_LEN = MIRROR_MAX_LEN, MIN_LEN = MIRROR_MIN_LEN, U_MAX = MAX_LEN + 1,
       T_MAX = MAX_LEN + 1 };   // + the source's end marker
enum { N_TRAIN = 6000, N_VAL = 500, N_TEST = 2000, EVAL_BATCH = MIRROR_BATCH_MAX };
enum { LEN_BIN = 4, N_BINS = (MAX_LEN - MIN_LEN) / LEN_BIN + 1,
       MAX_EPOCHS = TRAINER_MAX_EPOCHS };
#define CLIP_NORM 5.0

typedef struct {
    tf_model_t md;               // the model: config, views into tr's buffers, scratch
    trainer_t tr;                // parameters, gradients, Adam moments, loss curve
    int epochs, batch, warmup, small;
    int claims;                  // the book's run: its accuracy claims are checked
    float lr;
    mirror_split_t train, val, test;
    mirror_batch_t bb;
    mirror_feed_t feed;          // train and val as the trainer's batches
    rng_t rng;
    // results
    double decode_seconds;
    long decode_tokens;
    double exact, token_acc;
    int *test_out;               // (N_TEST, U_MAX) greedy outputs
    float *test_cross;           // (N_TEST, n_dec, h, U_MAX, T_MAX) cross-attention
    float *w0;                   // the initial weights, for the run without warm-up
    rng_t rng0;                  // the batches' random numbers at the start of training
} run_t;

// ---------------------------------------------------------------------------
// the model

static double val_exact(void *run);

// The model's buffers (in the trainer), its views and workspace, and the test
// outputs.
// Adam with the paper's betas and epsilon (Vaswani et al., 2017, 5.3)
static trainer_config_t train_config(const run_t *run) {
    return (trainer_config_t){.epochs = run->epochs, .lr = run->lr,
                              .warmup = run->warmup, .schedule = trainer_lr_warmup,
                              .beta1 = 0.9f, .beta2 = 0.98f, .eps = 1e-9f,
                              .clip = CLIP_NORM, .clock = clock_cpu_seconds,
                              .progress = progress_print, .progress_ctx = (void *)PROG};
}

static void model_new(run_t *run, rng_t *rng) {
    tf_model_t *md = &run->md;
    long n = tf_param_count(&md->cfg);
    trainer_config_t tc = train_config(run);
    run->feed = (mirror_feed_t){.train = &run->train, .val = &run->val,
                                .batch = run->batch, .eval_batch = EVAL_BATCH,
                                .src_eos = 1, .bb = &run->bb};
    xok(PROG,
        trainer_init(&run->tr, &tc, n, mirror_feed_count(run->train.n, run->batch)),
        "trainer_init");
    tf_init(run->tr.w, &md->cfg, rng);
    tf_bind(&md->p, run->tr.w, &md->cfg);
    tf_bind(&md->g, run->tr.g, &md->cfg);
    md->work = tf_work_new(&md->cfg);
    xok(PROG, md->work ? 0 : -1, "tf_work_new");
    run->test_out = xmalloc(PROG, (size_t)run->test.n * U_MAX * sizeof(int));
    run->test_cross = xfloats(PROG, (size_t)run->test.n * md->cfg.n_dec *
                                        md->cfg.n_heads * U_MAX * T_MAX);
}

static void model_free(run_t *run) {
    trainer_free(&run->tr);
    tf_work_free(run->md.work);
    free(run->test_out);
    free(run->test_cross);
    free(run->w0);
}

// Greedy-decode a split; out (n, U_MAX) and cross or NULL, in the split's own
// order. Returns the exact-match rate; *tok_acc (or NULL) gets the per-token
// accuracy (target positions, EOS included); *tokens (or NULL) the number of
// tokens generated.
static double split_decode(run_t *run, const mirror_split_t *s, int *out, float *cross,
                           double *tok_acc, long *tokens) {
    static int o[EVAL_BATCH * U_MAX];
    const tf_config_t *c = &run->md.cfg;
    size_t per = (size_t)c->n_dec * c->n_heads * U_MAX;   // cross rows per sentence
    float *cr = cross ? xfloats(PROG, EVAL_BATCH * per * T_MAX) : NULL;
    long exact = 0, right = 0, total = 0, made = 0;
    for (int i = 0; i < s->n; i += EVAL_BATCH) {
        int b = s->n - i < EVAL_BATCH ? s->n - i : EVAL_BATCH;
        const int *idx = s->order + i;
        mirror_batch_fill(&run->bb, s, idx, b, 1);
        int t_len = run->bb.bt.t_len;
        xok(PROG,
            tf_greedy(&run->md.p, c, run->bb.src, run->bb.mask, b, t_len, o, NULL, cr,
                      run->md.work),
            "tf_greedy");
        for (int r = 0; r < b; r++) {
            int len = s->len[idx[r]], ok = 1;
            for (int j = 0; j <= len; j++) {
                int got = o[r * U_MAX + j];
                ok &= got == run->bb.tout[r * run->bb.bt.u_len + j];
                right += got == run->bb.tout[r * run->bb.bt.u_len + j];
            }
            for (int j = 0; j < U_MAX && o[r * U_MAX + j] != S2S_PAD; j++) made++;
            total += len + 1;
            exact += ok;
            if (out)
                memcpy(out + (size_t)idx[r] * U_MAX, o + r * U_MAX,
                       U_MAX * sizeof(int));
            if (cross)
                for (size_t q = 0; q < per; q++)
                    for (int t = 0; t < T_MAX; t++)
                        cross[((size_t)idx[r] * per + q) * T_MAX + t] =
                            t < t_len ? cr[((size_t)r * per + q) * t_len + t] : 0.0f;
        }
    }
    free(cr);
    if (tok_acc) *tok_acc = (double)right / (double)total;
    if (tokens) *tokens = made;
    return (double)exact / s->n;
}

// The exact-match rate on the validation split, the trainer's decode score.
static double val_exact(void *run) {
    run_t *rn = run;
    return split_decode(rn, &rn->val, NULL, NULL, NULL, NULL);
}

static void train(run_t *run, rng_t *rng) {
    mirror_feed_t *f = &run->feed;
    trainer_model_t m = {.self = &run->md, .forward = tf_model_forward,
                         .backward = tf_model_backward, .decode = val_exact,
                         .decode_ctx = run};
    trainer_data_t d = {.self = f, .n_train = mirror_feed_count(f->train->n, f->batch),
                        .n_val = mirror_feed_count(f->val->n, f->eval_batch),
                        .train_batch = mirror_feed_train, .val_batch = mirror_feed_val};
    xok(PROG, trainer_run(&run->tr, &m, &d, rng), "trainer_run");
}

// ---------------------------------------------------------------------------
// printing

// Print ids as words after a label, wrapping at 78 columns; stops at EOS or PAD.
static void print_words(const char *label, const int *ids, int n, int target) {
    char buf[3];
    int col = printf("%-12s", label);
    for (int i = 0; i < n && ids[i] != S2S_PAD; i++) {
        const char *w =
            target ? mirror_tgt_text(ids[i], buf) : mirror_src_text(ids[i], buf);
        if (col + 1 + (int)strlen(w) > 78) col = printf("\n%-12s", "") - 1;
        col += printf(" %s", w);
        if (target && ids[i] == S2S_EOS) break;
    }
    printf("\n");
}

// ---------------------------------------------------------------------------
// the model

static void section_model(report_t *r, const run_t *run) {
    const tf_config_t *c = &run->md.cfg;
    report_section(r, "the model");
    long d = c->d_model, f = c->d_ff;
    long emb = (long)(c->v_src + c->v_tgt) * d;
    long enc = 4 * d * d + d + 2 * d * f + f + d + 4 * d;
    long dec = 8 * d * d + 2 * d + 2 * d * f + f + d + 6 * d;
    long out = d * c->v_tgt + c->v_tgt;
    printf(
        "d_model %d, %d heads of d_k %d, d_ff %d, %d encoder and %d decoder blocks\n",
        c->d_model, c->n_heads, c->d_model / c->n_heads, c->d_ff, c->n_enc, c->n_dec);
    printf("vocabularies: %d source ids (padding, %d words, </s>), %d target ids\n",
           c->v_src, MIRROR_WORDS, c->v_tgt);
    printf("%-28s %9s\n", "parameters", "count");
    printf("%-28s %9ld\n", "embeddings (source, target)", emb);
    printf("%-28s %9ld  (%d x %ld)\n", "encoder blocks", c->n_enc * enc, c->n_enc, enc);
    printf("%-28s %9ld  (%d x %ld)\n", "decoder blocks", c->n_dec * dec, c->n_dec, dec);
    printf("%-28s %9ld\n", "output layer", out);
    printf("%-28s %9ld\n", "total", run->tr.n);
    report_check(r, "the parts add up to tf_param_count",
                 (double)(emb + c->n_enc * enc + c->n_dec * dec + out - run->tr.n), 0);
    report_value(r, "d_model", "%.0f", c->d_model);
    report_value(r, "heads", "%.0f", c->n_heads);
    report_value(r, "d_k", "%.0f", c->d_model / c->n_heads);
    report_value(r, "d_ff", "%.0f", c->d_ff);
    report_value(r, "n_enc", "%.0f", c->n_enc);
    report_value(r, "n_dec", "%.0f", c->n_dec);
    report_value(r, "params", "%.0f", (double)run->tr.n);
    report_value(r, "params_emb", "%.0f", (double)emb);
    report_value(r, "params_enc", "%.0f", (double)enc);
    report_value(r, "params_dec", "%.0f", (double)dec);
}

// ---------------------------------------------------------------------------
// the gradient check

// Mean loss of the batch in run->bb under the parameters in buf.
static double batch_loss(run_t *run, const tf_config_t *c, float *buf, tf_work_t *w) {
    tf_params_t p;
    tf_bind(&p, buf, c);
    int count;
    return tf_forward(&p, c, &run->bb.bt, w, &count) / count;
}

// A small model of the same shape on four real sentences: every gradient of
// tf_backward against a central difference, in double where it matters.
static void section_gradients(report_t *r, run_t *run, rng_t *rng) {
    report_section(r, "the gradient check");
    int small = run->small;   // under valgrind: a quarter of the parameters
    tf_config_t c = {.v_src = run->md.cfg.v_src, .v_tgt = run->md.cfg.v_tgt,
                     .d_model = small ? 4 : 8, .n_heads = 2, .d_ff = small ? 8 : 16,
                     .n_enc = small ? 1 : 2, .n_dec = small ? 1 : 2, .b_max = 4,
                     .t_max = T_MAX, .u_max = U_MAX};
    long n = tf_param_count(&c);
    float *buf = xfloats(PROG, (size_t)n), *grad = xfloats(PROG, (size_t)n);
    tf_work_t *w = tf_work_new(&c);
    xok(PROG, w ? 0 : -1, "tf_work_new");
    tf_init(buf, &c, rng);
    memset(grad, 0, (size_t)n * sizeof(float));
    int idx[4] = {run->test.order[0], run->test.order[1], run->test.order[2],
                  run->test.order[3]};
    mirror_batch_fill(&run->bb, &run->test, idx, 4, 1);
    tf_params_t p, g;
    tf_bind(&p, buf, &c);
    tf_bind(&g, grad, &c);
    int count;
    tf_forward(&p, &c, &run->bb.bt, w, &count);
    xok(PROG, tf_backward(&p, &g, &c, &run->bb.bt, w, 1.0f / (float)count),
        "tf_backward");
    double worst = 0.0, worst_abs = 0.0;
    long checked = 0;
    for (long i = 0; i < n; i++) {
        if (grad[i] == 0.0f) continue;   // unused embedding rows
        float keep = buf[i], eps = 1e-3f;
        buf[i] = keep + eps;
        double up = batch_loss(run, &c, buf, w);
        buf[i] = keep - eps;
        double down = batch_loss(run, &c, buf, w);
        buf[i] = keep;
        double num = (up - down) / (2.0 * eps), err = fabs(num - grad[i]);
        double rel = err / (3e-3 + 3e-2 * fabs(num));   // as the unit tests allow
        if (rel > worst) worst = rel;
        if (err > worst_abs) worst_abs = err;
        checked++;
    }
    printf("a model with d_model %d, %d heads, %d + %d blocks: %ld parameters,\n",
           c.d_model, c.n_heads, c.n_enc, c.n_dec, n);
    printf("on 4 test sentences; every parameter with a nonzero gradient (%ld)\n",
           checked);
    printf("against (L(w + h) - L(w - h)) / 2h with h = 0.001:\n");
    printf("  largest |backward - difference|                   %.2e\n", worst_abs);
    report_check(r, "largest |error| / (0.003 + 0.03 |difference|)", worst, 1.0);
    report_value(r, "grad_checked", "%.0f", (double)checked);
    report_value(r, "grad_worst", "%.1e", worst);
    free(buf);
    free(grad);
    tf_work_free(w);
}

// ---------------------------------------------------------------------------
// training

static void section_training(report_t *r, const run_t *run) {
    report_section(r, "training");
    int n_batches = (run->train.n + run->batch - 1) / run->batch;
    printf("Adam (beta2 0.98, eps 1e-9), peak learning rate %.4f, warm-up %d steps,\n",
           run->lr, run->warmup);
    printf("then linear decay to 0; batches of %d, gradient norm clipped at %.0f;\n",
           run->batch, CLIP_NORM);
    printf("%d epochs of %d sentences (%d steps)\n", run->epochs, run->train.n,
           run->epochs * n_batches);
    printf("%5s %12s %12s %12s\n", "epoch", "train loss", "val loss", "val exact");
    FILE *f = report_data(r, "loss.dat");
    if (f) fprintf(f, "# epoch train_loss val_loss val_exact\n");
    for (int ep = 0; ep < run->epochs; ep++)
        printf("%5d %12.4f %12.4f %12.3f\n", ep + 1, run->tr.train_loss[ep],
               run->tr.val_loss[ep], run->tr.val_score[ep]);
    trainer_write_curve(f, &run->tr);
    report_data_close(r, f);
    int last = run->epochs - 1;
    report_value(r, "epochs", "%.0f", run->epochs);
    report_value(r, "batch", "%.0f", run->batch);
    report_value(r, "lr", "%.4f", run->lr);
    report_value(r, "warmup", "%.0f", run->warmup);
    report_value(r, "steps", "%.0f", (double)run->epochs * n_batches);
    report_value(r, "train_loss", "%.4f", run->tr.train_loss[last]);
    report_value(r, "val_loss", "%.4f", run->tr.val_loss[last]);
    report_value(r, "first_loss", "%.2f", run->tr.train_loss[0]);
    if (run->claims)
        report_check_true(r, "the training loss fell below a tenth of epoch 1's",
                          run->tr.train_loss[last] < run->tr.train_loss[0] / 10);
}

// ---------------------------------------------------------------------------
// test accuracy

static void section_test(report_t *r, const run_t *run) {
    report_section(r, "test accuracy");
    printf("greedy decoding of the %d test sentences (those of chapter 8)\n",
           run->test.n);
    printf("%-12s %12s %16s\n", "model", "exact match", "token accuracy");
    printf("%-12s %12.4f %16.4f\n", "transformer", run->exact, run->token_acc);
    report_value(r, "exact", "%.1f", 100 * run->exact);
    report_value(r, "token", "%.1f", 100 * run->token_acc);
    if (run->claims)
        report_check_true(r, "transformer: exact match >= 0.98", run->exact >= 0.98);
}

// ---------------------------------------------------------------------------
// accuracy against length

static int exact_one(const run_t *run, int i) {
    const mirror_split_t *s = &run->test;
    int len = s->len[i], tgt[MAX_LEN], ok = 1;
    mirror_translate(s->tok + i * MAX_LEN, len, tgt);
    const int *o = run->test_out + (size_t)i * U_MAX;
    for (int j = 0; j < len; j++) ok &= o[j] == tgt[j];
    return ok && o[len] == S2S_EOS;
}

// The exact-match rate of run's test outputs on sentences of lo..hi words; *n
// gets their number.
static double bin_exact(const run_t *run, int lo, int hi, int *n) {
    int ok = 0;
    *n = 0;
    for (int i = 0; i < run->test.n; i++) {
        if (run->test.len[i] < lo || run->test.len[i] > hi) continue;
        (*n)++;
        ok += exact_one(run, i);
    }
    return *n ? (double)ok / *n : 0.0;
}

// The length bins of chapter 8's table: bin k is [bin_lo(k), bin_hi(k)].
static int bin_lo(int k) { return MIN_LEN + k * LEN_BIN; }
static int bin_hi(int k) {
    int hi = bin_lo(k) + LEN_BIN - 1 < MAX_LEN ? bin_lo(k) + LEN_BIN - 1 : MAX_LEN;
    return MAX_LEN - hi < LEN_BIN / 2 ? MAX_LEN : hi;   // no tiny last bin
}
static int n_bins(void) {
    int k = 0;
    while (bin_hi(k) < MAX_LEN) k++;
    return k + 1;
}

static void section_length(report_t *r, const run_t *run) {
    report_section(r, "accuracy against length");
    printf("exact match on the test sentences, by source length\n");
    printf("%-9s %10s %12s\n", "length", "sentences", "transformer");
    FILE *f = report_data(r, "length.dat");
    if (f) fprintf(f, "# mid_length n exact\n");
    double worst = 1.0, first = 0.0, last = 0.0;
    for (int k = 0; k < n_bins(); k++) {
        int lo = bin_lo(k), hi = bin_hi(k), n;
        double ex = bin_exact(run, lo, hi, &n);
        char range[16];
        snprintf(range, sizeof range, "%d-%d", lo, hi);
        printf("%-9s %10d %12.3f\n", range, n, ex);
        if (f) fprintf(f, "%.1f %d %.4f\n", (lo + hi) / 2.0, n, ex);
        if (n && ex < worst) worst = ex;
        if (k == 0) first = ex;
        last = ex;
    }
    report_data_close(r, f);
    report_value(r, "worst_bin", "%.3f", worst);
    report_value(r, "first_bin", "%.3f", first);
    report_value(r, "last_bin", "%.3f", last);
}

// ---------------------------------------------------------------------------
// the same run without the warm-up

// alt: run's model from the same initial weights, trained on the same batches
// with a warm-up of 1 step (the peak learning rate from the first step), then
// the test split decoded. Shares run's splits, feed and batch buffers.
static void train_without_warmup(const run_t *run, run_t *alt) {
    *alt = *run;
    alt->warmup = 1;
    alt->test_cross = NULL;
    alt->w0 = NULL;
    trainer_config_t tc = train_config(alt);
    tf_model_t *md = &alt->md;
    xok(PROG,
        trainer_init(&alt->tr, &tc, run->tr.n,
                     mirror_feed_count(run->train.n, run->batch)),
        "trainer_init");
    memcpy(alt->tr.w, run->w0, (size_t)run->tr.n * sizeof(float));
    tf_bind(&md->p, alt->tr.w, &md->cfg);
    tf_bind(&md->g, alt->tr.g, &md->cfg);
    md->work = tf_work_new(&md->cfg);
    xok(PROG, md->work ? 0 : -1, "tf_work_new");
    alt->test_out = xmalloc(PROG, (size_t)run->test.n * U_MAX * sizeof(int));
    rng_t rng = run->rng0;
    train(alt, &rng);
    alt->exact =
        split_decode(alt, &alt->test, alt->test_out, NULL, &alt->token_acc, NULL);
}

// The two runs side by side: loss curves (and nowarmup.dat), test accuracy and
// accuracy against length.
static void section_no_warmup(report_t *r, const run_t *run, const run_t *alt) {
    report_section(r, "without the warm-up");
    printf("the same model from the same initial weights, on the same batches, with\n"
           "the learning rate at its peak %.4f from the first step\n", run->lr);
    printf("%5s  %-30s  %-30s\n", "", "warm-up", "no warm-up");
    printf("%5s", "epoch");
    for (int k = 0; k < 2; k++) printf("  %9s %9s %10s", "train", "val", "val exact");
    printf("\n");
    FILE *f = report_data(r, "nowarmup.dat");
    if (f) fprintf(f, "# epoch train_loss val_loss val_exact, without the warm-up\n");
    for (int ep = 0; ep < run->epochs; ep++) {
        printf("%5d", ep + 1);
        for (const run_t *x = run; x; x = x == run ? alt : NULL)
            printf("  %9.4f %9.4f %10.3f", x->tr.train_loss[ep], x->tr.val_loss[ep],
                   x->tr.val_score[ep]);
        printf("\n");
    }
    trainer_write_curve(f, &alt->tr);
    report_data_close(r, f);
    printf("\n%-9s %10s %10s %11s\n", "length", "sentences", "warm-up", "no warm-up");
    double first = 0.0, last = 0.0;
    for (int k = 0; k < n_bins(); k++) {
        int n;
        double with = bin_exact(run, bin_lo(k), bin_hi(k), &n);
        last = bin_exact(alt, bin_lo(k), bin_hi(k), &n);
        if (k == 0) first = last;
        char range[16];
        snprintf(range, sizeof range, "%d-%d", bin_lo(k), bin_hi(k));
        printf("%-9s %10d %10.3f %11.3f\n", range, n, with, last);
    }
    printf("%-20s %10.4f %11.4f\n", "test, exact match", run->exact, alt->exact);
    printf("%-20s %10.4f %11.4f\n", "test, token accuracy", run->token_acc,
           alt->token_acc);
    int end = run->epochs - 1, above = 1;   // above: a higher loss at every epoch
    for (int ep = 0; ep <= end; ep++)
        above &= alt->tr.train_loss[ep] > run->tr.train_loss[ep];
    report_value(r, "nw_exact", "%.1f", 100 * alt->exact);
    report_value(r, "nw_first_bin", "%.3f", first);
    report_value(r, "nw_first_loss", "%.2f", alt->tr.train_loss[0]);
    report_value(r, "nw_train_loss", "%.4f", alt->tr.train_loss[end]);
    report_value(r, "nw_last_bin", "%.3f", last);
    if (!run->claims) return;
    report_check_true(r, "no warm-up: the training loss fell below a tenth of "
                         "epoch 1's",
                      alt->tr.train_loss[end] < alt->tr.train_loss[0] / 10);
    report_check_true(r, "no warm-up: a higher training loss at every epoch", above);
    report_check_true(r, "the warm-up run is the more accurate on the test set",
                      run->exact > alt->exact);
}

// ---------------------------------------------------------------------------
// cross-attention

static const float *cross_row(const run_t *run, int i, int l, int h, int j) {
    const tf_config_t *c = &run->md.cfg;
    return run->test_cross +
           ((((size_t)i * c->n_dec + l) * c->n_heads + h) * U_MAX + j) * T_MAX;
}

// Where one head looks (h = -1: the mean of block l's heads), over the test
// set: at output step j of a sentence of n words, the weight on source word
// n-1-j; the share of steps whose largest weight is on it; the share whose
// largest weight is on it or a neighbour; and the most common offset of the
// largest weight from n-1-j (-1: the word before it, +1: the word after it,
// which is the word translated at the step before) with its share.
typedef struct {
    double weight, argmax, near, offset_share;
    int offset;
} gaze_t;

enum { MAX_OFF = 3 };   // offsets counted: -MAX_OFF..MAX_OFF

static gaze_t head_gaze(const run_t *run, int l, int h) {
    const mirror_split_t *s = &run->test;
    int h0 = h < 0 ? 0 : h, h1 = h < 0 ? run->md.cfg.n_heads : h + 1;
    double w = 0, hits = 0, near_hits = 0, off[2 * MAX_OFF + 1] = {0};
    long steps = 0;
    for (int i = 0; i < s->n; i++) {
        int len = s->len[i];
        for (int j = 0; j < len; j++) {
            float a[T_MAX] = {0};
            for (int k = h0; k < h1; k++) {
                const float *ak = cross_row(run, i, l, k, j);
                for (int t = 0; t <= len; t++) a[t] += ak[t] / (float)(h1 - h0);
            }
            int best = 0, target = len - 1 - j;
            for (int t = 1; t <= len; t++) best = a[t] > a[best] ? t : best;
            w += a[target];
            hits += best == target;
            near_hits += abs(best - target) <= 1;
            if (abs(best - target) <= MAX_OFF) off[best - target + MAX_OFF] += 1;
            steps++;
        }
    }
    gaze_t g = {.weight = w / (double)steps, .argmax = hits / (double)steps,
                .near = near_hits / (double)steps, .offset = 0};
    for (int k = 0; k <= 2 * MAX_OFF; k++)
        if (off[k] > off[g.offset + MAX_OFF]) g.offset = k - MAX_OFF;
    g.offset_share = off[g.offset + MAX_OFF] / (double)steps;
    return g;
}

static int first_of_len(const mirror_split_t *s, int want) {
    for (int i = 0; i < s->n; i++)
        if (s->len[i] == want) return i;
    return 0;
}

// One head's weights on test sentence i, for gnuplot's matrix format: the
// source words (and </s>) across, the output words down.
static void write_heatmap(report_t *r, const run_t *run, int i, int l, int h,
                          const char *name) {
    FILE *f = report_data(r, name);
    if (!f) return;
    const mirror_split_t *s = &run->test;
    int len = s->len[i];
    const int *o = run->test_out + (size_t)i * U_MAX;
    char buf[3];
    fprintf(f, "x");
    for (int t = 0; t < len; t++)
        fprintf(f, " \"%s\"", mirror_src_text(s->tok[i * MAX_LEN + t], buf));
    fprintf(f, " \"EOS\"\n");
    for (int j = 0; j <= len; j++) {
        fprintf(f, "\"%s\"", o[j] == S2S_EOS ? "EOS" : mirror_tgt_text(o[j], buf));
        const float *a = cross_row(run, i, l, h, j);
        for (int t = 0; t <= len; t++) fprintf(f, " %.4f", a[t]);
        fprintf(f, "\n");
    }
    report_data_close(r, f);
}

static void section_cross(report_t *r, const run_t *run) {
    const tf_config_t *c = &run->md.cfg;
    report_section(r, "what cross-attention looks at");
    printf("output word j of a sentence of n words translates source word n-1-j.\n");
    printf("per decoder block and head, over the test set: the mean weight on\n");
    printf("word n-1-j, the share of steps whose largest weight is on it (or next\n");
    printf("to it), and where the largest weight most often is (offset from n-1-j)\n");
    printf("%-5s %-5s %8s %9s %10s %8s %7s\n", "block", "head", "weight", "largest",
           "or next", "offset", "share");
    int best_l = 0, best_h = 0, hop_l = -1, hop_h = -1;
    double best_w = -1, hop_share = 0;
    for (int l = 0; l < c->n_dec; l++)
        for (int h = -1; h < c->n_heads; h++) {
            gaze_t g = head_gaze(run, l, h);
            char head[16];
            snprintf(head, sizeof head, "%d", h + 1);
            printf("%-5d %-5s %8.3f %9.3f %10.3f %+8d %7.3f\n", l + 1,
                   h < 0 ? "mean" : head, g.weight, g.argmax, g.near, g.offset,
                   g.offset_share);
            if (h >= 0 && g.weight > best_w) best_w = g.weight, best_l = l, best_h = h;
            if (h >= 0 && g.offset == 1 && g.offset_share > hop_share)
                hop_share = g.offset_share, hop_l = l, hop_h = h;
        }
    gaze_t last = head_gaze(run, c->n_dec - 1, -1);
    printf("the most mirror-like head: block %d, head %d\n", best_l + 1, best_h + 1);
    if (hop_l >= 0)
        printf("looking at the word translated one step before (offset +1) most:\n"
               "block %d, head %d, in %.1f%% of steps\n", hop_l + 1, hop_h + 1,
               100 * hop_share);
    report_value(r, "mirror_block", "%.0f", best_l + 1);
    report_value(r, "mirror_head", "%.0f", best_h + 1);
    report_value(r, "mirror_weight", "%.3f", best_w);
    report_value(r, "last_mean_weight", "%.3f", last.weight);
    report_value(r, "last_mean_argmax", "%.1f", 100 * last.argmax);
    report_value(r, "hop_block", "%.0f", hop_l + 1);
    report_value(r, "hop_head", "%.0f", hop_h + 1);
    report_value(r, "hop_share", "%.1f", 100 * hop_share);
    if (run->claims) {
        report_check_true(r, "last block, heads averaged: largest weight on word n-1-j "
                          "in >= 95% of steps", last.argmax >= 0.95);
        report_check_true(r, "a head looks at the word translated one step before in "
                          ">= 80% of steps", hop_share >= 0.8);
    }
    int i = first_of_len(&run->test, 9);
    write_heatmap(r, run, i, best_l, best_h, "cross_short.dat");
    write_heatmap(r, run, first_of_len(&run->test, MAX_LEN - 6), best_l, best_h,
                  "cross_long.dat");
    // every head of the first block on the short sentence, for the panel figure
    for (int l = 0; l < c->n_dec; l++)
        for (int h = 0; h < c->n_heads; h++) {
            char name[48];
            snprintf(name, sizeof name, "cross_b%d_h%d.dat", l + 1, h + 1);
            write_heatmap(r, run, i, l, h, name);
        }
}

// ---------------------------------------------------------------------------
// decoding with the cache

// The first test sentences decoded with the cache, then run through the full
// teacher-forced forward on the tokens chosen: the same logits, bit for bit.
static void section_cache(report_t *r, run_t *run) {
    report_section(r, "decoding with the key/value cache");
    const tf_config_t *c = &run->md.cfg;
    enum { N = 20 };
    int n = run->test.n < N ? run->test.n : N, out[N * U_MAX];
    float *lg = xfloats(PROG, (size_t)N * U_MAX * c->v_tgt);
    mirror_batch_fill(&run->bb, &run->test, run->test.order + run->test.n - n, n, 1);
    int src[N * T_MAX], t_len = run->bb.bt.t_len;
    unsigned char mask[N * T_MAX];
    memcpy(src, run->bb.src, sizeof(int) * n * t_len);
    memcpy(mask, run->bb.mask, (size_t)n * t_len);
    xok(PROG,
        tf_greedy(&run->md.p, c, src, mask, n, t_len, out, lg, NULL, run->md.work),
        "tf_greedy");
    long differ = 0, compared = 0, steps = 0;
    for (int s = 0; s < n; s++) {
        int u = 0, tin[U_MAX], tout[U_MAX];
        while (u < U_MAX && out[s * U_MAX + u] != S2S_PAD) u++;
        tin[0] = S2S_BOS;
        for (int j = 0; j < u; j++) {
            tout[j] = out[s * U_MAX + j];
            if (j + 1 < u) tin[j + 1] = tout[j];
        }
        s2s_batch_t one = {.b = 1, .t_len = t_len, .u_len = u, .src = src + s * t_len,
                           .src_mask = mask + s * t_len, .tgt_in = tin,
                           .tgt_out = tout};
        int count;
        tf_forward(&run->md.p, c, &one, run->md.work, &count);
        const float *full = tf_logits(run->md.work);
        for (long k = 0; k < (long)u * c->v_tgt; k++)
            differ += full[k] != lg[(size_t)s * U_MAX * c->v_tgt + k];
        compared += (long)u * c->v_tgt;
        steps += u;
    }
    printf("the %d longest test sentences, %ld decoding steps: each step's %d logits\n",
           n, steps, c->v_tgt);
    printf("from the cache against the full decoder rerun on the same prefix\n");
    report_check(r, "logits that differ (of all compared)", (double)differ, 0);
    report_value(r, "cache_steps", "%.0f", (double)steps);
    report_value(r, "cache_compared", "%.0f", (double)compared);
    free(lg);
}

// ---------------------------------------------------------------------------
// examples

static void section_examples(report_t *r, const run_t *run) {
    report_section(r, "example translations");
    const mirror_split_t *s = &run->test;
    int shown = 0, wrong = 0;
    for (int i = 0; i < s->n && shown < 2; i++) {
        if (s->len[i] < 12 || !exact_one(run, i)) continue;
        print_words("source", s->tok + i * MAX_LEN, s->len[i], 0);
        print_words("transformer", run->test_out + (size_t)i * U_MAX, U_MAX, 1);
        printf("\n");
        shown++;
    }
    for (int i = 0; i < s->n; i++) {
        if (exact_one(run, i)) continue;
        if (!wrong) {
            int tgt[MAX_LEN + 1];
            mirror_translate(s->tok + i * MAX_LEN, s->len[i], tgt);
            tgt[s->len[i]] = S2S_EOS;
            printf("the first test sentence it gets wrong:\n");
            print_words("source", s->tok + i * MAX_LEN, s->len[i], 0);
            print_words("reference", tgt, s->len[i] + 1, 1);
            print_words("transformer", run->test_out + (size_t)i * U_MAX, U_MAX, 1);
        }
        wrong++;
    }
    printf("%d of %d test sentences wrong\n", wrong, s->n);
    report_value(r, "wrong", "%.0f", wrong);
}

// ---------------------------------------------------------------------------
// weights and time

static void save_weights(report_t *r, const run_t *run) {
    FILE *f = report_data(r, "weights.bin");
    if (!f) return;
    fwrite(run->tr.w, sizeof(float), (size_t)run->tr.n, f);
    report_data_close(r, f);
}

static void section_measured(report_t *r, const run_t *run) {
    report_section(r, "measured time");
    printf("training    %6.1f s for %d epochs (processor time, one core, -O3)\n",
           run->tr.seconds, run->epochs);
    printf("decoding    %6.1f s for %ld tokens of the test set: %.1f us per token\n",
           run->decode_seconds, run->decode_tokens,
           1e6 * run->decode_seconds / (double)run->decode_tokens);
    FILE *f = report_data(r, "measured_time.tsv");
    if (f) {
        fprintf(f, "train_seconds\t%.1f\n", run->tr.seconds);
        fprintf(f, "us_per_token\t%.1f\n",
                1e6 * run->decode_seconds / (double)run->decode_tokens);
        report_data_close(r, f);
    }
}

// ---------------------------------------------------------------------------
// setting up, training, tearing down

typedef struct {
    long epochs, small, d_model, heads, layers, warmup;
    double lr;
} opts_t;

// The options checked against each other, the random numbers, the splits, the
// model. Returns 0; 2 after one line on stderr (and r closed) if the options do
// not fit together.
static int run_setup(run_t *run, const opts_t *o, report_t *r, uint64_t seed) {
    if (o->d_model % o->heads) {
        fprintf(stderr, "%s: --heads %ld does not divide --d-model %ld\n", PROG,
                o->heads, o->d_model);
        report_close(r);
        return 2;
    }
    rng_t *rng = &run->rng;
    rng_seed(rng, seed);
    int small = (int)o->small, layers = small ? 1 : (int)o->layers;
    run->small = small;
    // The claims the chapter makes are about its own run: with other options
    // the program reports the same tables but does not hold them to it.
    run->claims = !small && o->epochs == 12 && o->d_model == 32 && o->heads == 4 &&
                  o->layers == 2 && o->lr == 0.007 && o->warmup == 300;
    if (!run->claims && !small)
        fprintf(stderr,
                "%s: options other than the book's: its accuracy claims are not "
                "checked\n",
                PROG);
    run->epochs = small ? 1 : (int)o->epochs;
    run->batch = 16;
    run->lr = (float)o->lr;
    run->warmup = small ? 10 : (int)o->warmup;
    // the same splits as chapter 8: same seed, same order of draws
    const char *msm = "mirror_split_make";
    xok(PROG, mirror_split_make(&run->train, small ? 300 : N_TRAIN, 1, rng), msm);
    xok(PROG, mirror_split_make(&run->val, small ? 100 : N_VAL, 0, rng), msm);
    xok(PROG, mirror_split_make(&run->test, small ? 200 : N_TEST, 0, rng), msm);
    run->md.cfg = (tf_config_t){.v_src = MIRROR_V_SRC + 1, .v_tgt = MIRROR_V_TGT,
                                .d_model = small ? 16 : (int)o->d_model,
                                .n_heads = small ? 4 : (int)o->heads,
                                .d_ff = small ? 32 : 2 * (int)o->d_model,
                                .n_enc = layers, .n_dec = layers, .b_max = EVAL_BATCH,
                                .t_max = T_MAX, .u_max = U_MAX};
    model_new(run, rng);
    return 0;
}

// Train, then decode the test split (timed) and save the weights.
static void run_train(report_t *r, run_t *run) {
    run->w0 = xfloats(PROG, (size_t)run->tr.n);
    memcpy(run->w0, run->tr.w, (size_t)run->tr.n * sizeof(float));
    run->rng0 = run->rng;
    train(run, &run->rng);
    double t0 = clock_cpu_seconds();
    run->exact = split_decode(run, &run->test, run->test_out, run->test_cross,
                              &run->token_acc, &run->decode_tokens);
    run->decode_seconds = clock_cpu_seconds() - t0;
    save_weights(r, run);
}

static void run_free(run_t *run) {
    model_free(run);
    mirror_split_free(&run->train);
    mirror_split_free(&run->val);
    mirror_split_free(&run->test);
}

// ---------------------------------------------------------------------------
// main

// The chapter's sections, in the order the book shows them.
static void run_sections(report_t *r, run_t *run) {
    section_model(r, run);
    section_gradients(r, run, &run->rng);
    run_train(r, run);
    section_training(r, run);
    section_test(r, run);
    section_length(r, run);
    if (run->claims || run->small) {   // the book's run (and the tests' small one)
        static run_t alt;
        train_without_warmup(run, &alt);
        section_no_warmup(r, run, &alt);
        model_free(&alt);
    }
    section_cross(r, run);
    section_cache(r, run);
    section_examples(r, run);
    section_measured(r, run);
}

int main(int argc, char **argv) {
    opts_t o = {.epochs = 12, .d_model = 32, .heads = 4, .layers = 2, .warmup = 300,
                .lr = 0.007};
    const cli_opt_t opts[] = {
        {.name = "--epochs", .meta = "N", .help = "training epochs",
         .kind = CLI_INT, .ival = &o.epochs, .min = 1, .max = MAX_EPOCHS},
        {.name = "--d-model", .meta = "N", .help = "width d_model (d_ff = 2 d_model)",
         .kind = CLI_INT, .ival = &o.d_model, .min = 4, .max = 256},
        {.name = "--heads", .meta = "N",
         .help = "attention heads (must divide d_model)", .kind = CLI_INT,
         .ival = &o.heads, .min = 1, .max = 16},
        {.name = "--layers", .meta = "N", .help = "encoder blocks = decoder blocks",
         .kind = CLI_INT, .ival = &o.layers, .min = 1, .max = TF_MAX_LAYERS},
        {.name = "--lr", .meta = "X", .help = "peak learning rate",
         .kind = CLI_REAL, .rval = &o.lr, .min = 1e-5, .max = 0.1},
        {.name = "--warmup", .meta = "N", .help = "warm-up steps",
         .kind = CLI_INT, .ival = &o.warmup, .min = 1, .max = 100000},
        {.name = "--small",
         .help = "tiny run for the tests: 1 epoch, d_model 16, no claims",
         .kind = CLI_FLAG, .ival = &o.small},
    };
    cli_t cli = {.program = PROG,
                 .summary = "Chapter 9: the Transformer, trained in C on chapter 8's "
                            "task.",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 42};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);
    if (rc >= 0) return rc;
    static run_t run;
    if (run_setup(&run, &o, &r, cli.seed) != 0) return 2;
    run_sections(&r, &run);
    run_free(&run);
    return report_close(&r) == 0 ? 0 : 1;
}
