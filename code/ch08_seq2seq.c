// ch08_seq2seq.c -- chapter 8: a sequence-to-sequence model with attention,
// trained in C.
//
// Makes a translation-like task (a "mirror language": a sentence of letters is
// translated into capitals in reverse order), trains two encoder-decoder
// models on it with hand-written backward passes and Adam -- the GRU decoder
// with additive attention, and the same decoder that sees only one fixed
// summary of the source -- then compares them on held-out sentences: exact
// match, per-token accuracy, beam search beside greedy decoding (the
// baseline), accuracy against length, a wider baseline trained twice as
// long, the alignment the attention model learned, and example translations.
// Finally assembles the encoder-decoder Transformer from chapter 4's blocks
// and runs it forward on the same shapes.
//
// Progress (epoch, loss, accuracy, time) goes to stderr only when stderr is a
// terminal. The trained weights go to DIR/weights_attn.bin and
// DIR/weights_base.bin with --data DIR.
//
// Test args: --small

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mat.h"
#include "base/rng.h"
#include "program/cli.h"
#include "program/clock.h"
#include "program/program.h"
#include "program/progress.h"
#include "program/report.h"
#include "program/xalloc.h"
#include "layers/block.h"
#include "base/linear.h"
#include "data/mirror.h"
#include "train/trainer.h"
#include "models/seq2seq.h"

static const char *PROG = "ch08_seq2seq";

// The task: sentences of MIN_LEN..MAX_LEN distinct words out of N_WORDS.
enum { N_WORDS = MIRROR_WORDS, MIN_LEN = MIRROR_MIN_LEN, MAX_LEN = MIRROR_MAX_LEN };
enum { V_SRC = MIRROR_V_SRC, V_TGT = MIRROR_V_TGT, U_MAX = MAX_LEN + 1 };
enum { N_TRAIN = 6000, N_VAL = 500, N_TEST = 2000, EVAL_BATCH = MIRROR_BATCH_MAX,
       BATCH = 16 };
#define LR 0.008f
enum { LEN_BIN = 4, N_BINS = (MAX_LEN - MIN_LEN) / LEN_BIN + 1 };
#define CLIP_NORM 5.0
enum { WIDE_H = 48 };      // the wider baseline's GRU width, against H = 32
enum { BEAM = 4 };         // the beam search's width (small: it decodes the test set)

typedef struct {
    const char *name;      // "attention" / "baseline"
    s2s_model_t md;        // config, views into tr's buffers, workspace
    trainer_t tr;          // parameters, gradients, Adam moments, loss curve
    const mirror_split_t *val;   // for the trainer's decode score
    mirror_batch_t *bb;
    // results
    double decode_seconds;   // greedy decoding of the test split
    double exact, token_acc;
    double bin_exact[N_BINS];
    int *test_out;         // (N_TEST, U_MAX) greedy outputs
    float *test_alpha;     // (N_TEST, U_MAX, MAX_LEN) attention, attention model only
    // the baseline: beam search of width BEAM on the test split, and width 1
    int *beam_out, *beam1_out;     // (N_TEST, U_MAX) each
    double *beam_score, *beam1_score;   // (N_TEST,) total log probabilities
    double beam_seconds, beam_exact, beam_token;
} model_t;

typedef struct {
    int epochs, hidden, emb, attn, n_train;
    int small;             // --small: a tiny run whose accuracy claims are not checked
    int n_models;          // 2: attention and baseline; 1: --no-attention
    mirror_split_t train, val, test;
    mirror_batch_t bb;
    rng_t rng;
    model_t models[2];
    // the baseline again, wider and trained longer (the book's and the tests' runs)
    int wide_hidden, wide_epochs;
    model_t wide;
} run_t;

// ---------------------------------------------------------------------------
// the data

// ---------------------------------------------------------------------------
// the models

// A model of GRU width h (and attention width run->attn) trained for epochs.
static void model_new(model_t *md, const char *name, int attention, run_t *run,
                      int h, int epochs, rng_t *rng) {
    md->name = name;
    s2s_config_t *c = &md->md.cfg;
    *c = (s2s_config_t){.v_src = V_SRC, .v_tgt = V_TGT, .e = run->emb, .h = h,
                        .a = run->attn, .attention = attention, .b_max = EVAL_BATCH,
                        .t_max = MAX_LEN, .u_max = U_MAX};
    trainer_config_t tc = {.epochs = epochs, .lr = LR,
                           .schedule = trainer_lr_linear,
                           .beta1 = 0.9f, .beta2 = 0.999f, .eps = 1e-8f,
                           .clip = CLIP_NORM, .clock = clock_cpu_seconds,
                           .progress = progress_print, .progress_ctx = (void *)PROG};
    xok(PROG, trainer_init(&md->tr, &tc, s2s_param_count(c),
                           mirror_feed_count(run->train.n, BATCH)), "trainer_init");
    s2s_init(md->tr.w, c, rng);
    s2s_bind(&md->md.p, md->tr.w, c);
    s2s_bind(&md->md.g, md->tr.g, c);
    md->md.work = s2s_work_new(c);
    xok(PROG, md->md.work ? 0 : -1, "s2s_work_new");
    md->val = &run->val;
    md->bb = &run->bb;
    md->test_out = xmalloc(PROG, (size_t)N_TEST * U_MAX * sizeof(int));
    md->test_alpha = xfloats(PROG, (size_t)N_TEST * U_MAX * MAX_LEN);
    md->beam_out = xmalloc(PROG, 2 * (size_t)N_TEST * U_MAX * sizeof(int));
    md->beam1_out = md->beam_out + (size_t)N_TEST * U_MAX;
    md->beam_score = xmalloc(PROG, 2 * (size_t)N_TEST * sizeof(double));
    md->beam1_score = md->beam_score + N_TEST;
}

static void model_free(model_t *md) {
    trainer_free(&md->tr);
    s2s_work_free(md->md.work);
    free(md->test_out);
    free(md->test_alpha);
    free(md->beam_out);
    free(md->beam_score);
}

// Greedy-decode a split; out (n, U_MAX), alpha (n, U_MAX, MAX_LEN) or NULL, in
// the split's own order. Returns the exact-match rate; *tok_acc gets the
// per-token accuracy (target positions, EOS included, predicted right).
static double split_decode(model_t *md, const mirror_split_t *s, mirror_batch_t *bb,
                           int *out, float *alpha, double *tok_acc) {
    static int o[EVAL_BATCH * U_MAX];
    static float al[EVAL_BATCH * U_MAX * MAX_LEN];
    long exact = 0, right = 0, total = 0;
    for (int i = 0; i < s->n; i += EVAL_BATCH) {
        int b = s->n - i < EVAL_BATCH ? s->n - i : EVAL_BATCH;
        const int *idx = s->order + i;
        mirror_batch_fill(bb, s, idx, b, 0);
        s2s_greedy(&md->md.p, &md->md.cfg, bb->src, bb->mask, b, bb->bt.t_len, o,
                   alpha ? al : NULL, md->md.work);
        for (int r = 0; r < b; r++) {
            int len = s->len[idx[r]], ok = 1;
            for (int j = 0; j <= len; j++) {
                int want = bb->tout[r * bb->bt.u_len + j];
                int got = o[r * U_MAX + j];
                right += got == want;
                ok &= got == want;
            }
            total += len + 1;
            exact += ok;
            if (out) memcpy(out + (size_t)idx[r] * U_MAX, o + r * U_MAX,
                            U_MAX * sizeof(int));
            if (alpha)
                for (int j = 0; j < U_MAX; j++)
                    for (int t = 0; t < MAX_LEN; t++)
                        alpha[((size_t)idx[r] * U_MAX + j) * MAX_LEN + t] =
                            t < bb->bt.t_len ? al[(r * U_MAX + j) * bb->bt.t_len + t]
                                             : 0.0f;
        }
    }
    if (tok_acc) *tok_acc = (double)right / (double)total;
    return (double)exact / s->n;
}

// The exact-match rate on the validation split, the trainer's decode score.
static double val_exact(void *model) {
    model_t *md = model;
    return split_decode(md, md->val, md->bb, NULL, NULL, NULL);
}

static void train(model_t *md, run_t *run, rng_t *rng) {
    mirror_feed_t f = {.train = &run->train, .val = &run->val, .batch = BATCH,
                       .eval_batch = EVAL_BATCH, .src_eos = 0, .bb = &run->bb};
    trainer_model_t m = {.self = &md->md, .forward = s2s_model_forward,
                         .backward = s2s_model_backward, .decode = val_exact,
                         .decode_ctx = md, .label = md->name};
    trainer_data_t d = {.self = &f, .n_train = mirror_feed_count(f.train->n, f.batch),
                        .n_val = mirror_feed_count(f.val->n, f.eval_batch),
                        .train_batch = mirror_feed_train, .val_batch = mirror_feed_val};
    xok(PROG, trainer_run(&md->tr, &m, &d, rng), "trainer_run");
}

// Beam-search a split with the given width: out (n, U_MAX), score (n,) in the
// split's own order, EVAL_BATCH / width sentences at a time.
static void split_beam(model_t *md, const mirror_split_t *s, mirror_batch_t *bb,
                       int width, int *out, double *score) {
    static int o[EVAL_BATCH * U_MAX];
    static double sc[EVAL_BATCH];
    int per = EVAL_BATCH / width;
    for (int i = 0; i < s->n; i += per) {
        int b = s->n - i < per ? s->n - i : per;
        const int *idx = s->order + i;
        mirror_batch_fill(bb, s, idx, b, 0);
        xok(PROG, s2s_beam(&md->md.p, &md->md.cfg, bb->src, bb->mask, b, bb->bt.t_len,
                           width, o, sc, md->md.work), "s2s_beam");
        for (int r = 0; r < b; r++) {
            memcpy(out + (size_t)idx[r] * U_MAX, o + r * U_MAX, U_MAX * sizeof(int));
            score[idx[r]] = sc[r];
        }
    }
}

// The exact-match rate of outputs out (n, U_MAX) on split s; *tok_acc the
// per-token accuracy (target positions, EOS included), as split_decode counts.
static double split_accuracy(const mirror_split_t *s, const int *out, double *tok_acc) {
    long exact = 0, right = 0, total = 0;
    int tgt[MAX_LEN + 1];
    for (int i = 0; i < s->n; i++) {
        int len = s->len[i], ok = 1;
        mirror_translate(s->tok + i * MAX_LEN, len, tgt);
        tgt[len] = S2S_EOS;
        for (int j = 0; j <= len; j++) {
            right += out[(size_t)i * U_MAX + j] == tgt[j];
            ok &= out[(size_t)i * U_MAX + j] == tgt[j];
        }
        total += len + 1;
        exact += ok;
    }
    *tok_acc = (double)right / (double)total;
    return (double)exact / s->n;
}

// Beam search of width BEAM (timed) and of width 1 on the test split, for the
// baseline only (the attention model's greedy translations are nearly all
// right, and its decoding costs twice as much).
static void test_beam(model_t *md, run_t *run) {
    if (md->md.cfg.attention) return;
    double t0 = clock_cpu_seconds();
    split_beam(md, &run->test, &run->bb, BEAM, md->beam_out, md->beam_score);
    md->beam_seconds = clock_cpu_seconds() - t0;
    split_beam(md, &run->test, &run->bb, 1, md->beam1_out, md->beam1_score);
    md->beam_exact = split_accuracy(&run->test, md->beam_out, &md->beam_token);
}

// ---------------------------------------------------------------------------
// printing sentences

// Print ids as words after a label, wrapping at 78 columns; stops at EOS or PAD.
static void print_words(const char *label, const int *ids, int n, int target) {
    int col = printf("%-10s", label);
    for (int i = 0; i < n && ids[i] != S2S_PAD; i++) {
        char buf[3];
        const char *w =
            target ? mirror_tgt_text(ids[i], buf) : mirror_src_text(ids[i], buf);
        if (col + 1 + (int)strlen(w) > 78) col = printf("\n%-10s", "");
        col += printf(" %s", w);
        if (ids[i] == S2S_EOS) break;
    }
    printf("\n");
}

// ---------------------------------------------------------------------------
// the task

static void section_task(report_t *r, const run_t *run) {
    report_section(r, "the task");
    char a[3], b[3], c[3];
    printf("vocabulary: %d source words %s %s ... %s, translated word for word\n",
           N_WORDS, mirror_src_text(1, a), mirror_src_text(2, b),
           mirror_src_text(N_WORDS, c));
    printf("into %s %s ... %s; a sentence uses each word at most once.\n",
           mirror_tgt_text(3, a), mirror_tgt_text(4, b),
           mirror_tgt_text(N_WORDS + 2, c));
    printf("rule: translate every word and reverse the order.\n\n");
    const mirror_split_t *sp[3] = {&run->train, &run->val, &run->test};
    const char *names[3] = {"train", "validation", "test"};
    printf("%-11s %9s %8s %8s %10s\n", "split", "sentences", "min len", "max len",
           "mean len");
    for (int k = 0; k < 3; k++) {
        int lo = MAX_LEN, hi = 0;
        double mean = 0;
        for (int i = 0; i < sp[k]->n; i++) {
            int len = sp[k]->len[i];
            lo = len < lo ? len : lo;
            hi = len > hi ? len : hi;
            mean += len;
        }
        printf("%-11s %9d %8d %8d %10.1f\n", names[k], sp[k]->n, lo, hi,
               mean / sp[k]->n);
        if (k == 0) report_value(r, "train_mean_len", "%.1f", mean / sp[k]->n);
    }
    printf("\n");
    for (int i = 0; i < 2; i++) {
        int tgt[MAX_LEN + 1], len = run->test.len[i];
        mirror_translate(run->test.tok + i * MAX_LEN, len, tgt);
        tgt[len] = S2S_EOS;
        print_words("source", run->test.tok + i * MAX_LEN, len, 0);
        print_words("target", tgt, len + 1, 1);
    }
    report_value(r, "n_words", "%.0f", N_WORDS);
    report_value(r, "min_len", "%.0f", MIN_LEN);
    report_value(r, "max_len", "%.0f", MAX_LEN);
    report_value(r, "n_train", "%.0f", run->train.n);
    report_value(r, "n_val", "%.0f", run->val.n);
    report_value(r, "n_test", "%.0f", run->test.n);
}

// ---------------------------------------------------------------------------
// the two models

static void section_models(report_t *r, const run_t *run) {
    report_section(r, "the two models");
    printf("embedding E %d, GRU width H %d, attention width A %d\n", run->emb,
           run->hidden, run->attn);
    int e = run->emb, h = run->hidden, a = run->attn;
    long emb = (long)(V_SRC + V_TGT) * e, enc = 2 * gru_param_count(e, h);
    long init = 2L * h * h + h, att = (long)h * a + 2L * h * a + a;
    long dec = gru_param_count(e + 2 * h, h), out = 3L * h * V_TGT + V_TGT;
    const char *rows[6] = {"embeddings (source, target)", "bidirectional GRU encoder",
                           "s_0 = tanh([fwd; bwd] W_init)", "additive attention",
                           "GRU decoder", "output layer"};
    long parts[6] = {emb, enc, init, att, dec, out};
    printf("%-34s", "parameters");
    for (int k = 0; k < run->n_models; k++) printf(" %10s", run->models[k].name);
    printf("\n");
    for (int q = 0; q < 6; q++) {
        printf("%-34s", rows[q]);
        for (int k = 0; k < run->n_models; k++)
            printf(" %10ld", q == 3 && !run->models[k].md.cfg.attention ? 0 : parts[q]);
        printf("\n");
    }
    printf("%-34s", "total");
    for (int k = 0; k < run->n_models; k++) printf(" %10ld", run->models[k].tr.n);
    printf("\n");
    for (int k = 0; k < run->n_models; k++) {
        const model_t *md = &run->models[k];
        long sum = emb + enc + init + dec + out + (md->md.cfg.attention ? att : 0);
        char label[64];
        snprintf(label, sizeof label, "%s: total == sum of parts", md->name);
        report_check(r, label, (double)(md->tr.n - sum), 0);
        report_value(r, md->md.cfg.attention ? "params_attn" : "params_base", "%.0f",
                     (double)md->tr.n);
    }
    report_value(r, "cfg_e", "%.0f", e);
    report_value(r, "cfg_h", "%.0f", h);
    report_value(r, "cfg_a", "%.0f", a);
    report_value(r, "params_att_only", "%.0f", (double)att);
}

// ---------------------------------------------------------------------------
// training

static void section_training(report_t *r, const run_t *run) {
    report_section(r, "training");
    printf("mini-batches of %d sentences, Adam lr %.4f falling linearly to 0,\n",
           BATCH, LR);
    printf("gradient norm clipped at %.1f; %d epochs of %d sentences each\n",
           CLIP_NORM, run->epochs, run->train.n);
    printf("%5s", "");
    for (int k = 0; k < run->n_models; k++) printf("  %-27s", run->models[k].name);
    printf("\n%5s", "epoch");
    for (int k = 0; k < run->n_models; k++)
        printf("  %8s %8s %9s", "train", "val", "val exact");
    printf("\n");
    FILE *f = report_data(r, "loss.dat");
    if (f) fprintf(f, "# epoch, then per model: train_loss val_loss val_exact\n");
    for (int ep = 0; ep < run->epochs; ep++) {
        printf("%5d", ep + 1);
        if (f) fprintf(f, "%d", ep + 1);
        for (int k = 0; k < run->n_models; k++) {
            const model_t *md = &run->models[k];
            printf("  %8.4f %8.4f %9.3f", md->tr.train_loss[ep], md->tr.val_loss[ep],
                   md->tr.val_score[ep]);
            if (f)
                fprintf(f, " %.5f %.5f %.4f", md->tr.train_loss[ep],
                        md->tr.val_loss[ep], md->tr.val_score[ep]);
        }
        printf("\n");
        if (f) fprintf(f, "\n");
    }
    report_data_close(r, f);
    int last = run->epochs - 1;
    report_value(r, "epochs", "%.0f", run->epochs);
    report_value(r, "batch", "%.0f", BATCH);
    report_value(r, "lr", "%.3f", LR);
    report_value(r, "clip", "%.0f", CLIP_NORM);
    for (int k = 0; k < run->n_models; k++) {
        const model_t *md = &run->models[k];
        report_value(r, md->md.cfg.attention ? "attn_val_loss" : "base_val_loss",
                     "%.4f", md->tr.val_loss[last]);
        report_value(r, md->md.cfg.attention ? "attn_train_loss" : "base_train_loss",
                     "%.4f", md->tr.train_loss[last]);
    }
}

// ---------------------------------------------------------------------------
// test accuracy

static void section_test(report_t *r, const run_t *run) {
    report_section(r, "test accuracy");
    printf("greedy decoding of the %d test sentences\n", run->test.n);
    printf("%-10s %12s %16s\n", "model", "exact match", "token accuracy");
    for (int k = 0; k < run->n_models; k++) {
        const model_t *md = &run->models[k];
        printf("%-10s %12.4f %16.4f\n", md->name, md->exact, md->token_acc);
        report_value(r, md->md.cfg.attention ? "attn_exact" : "base_exact", "%.1f",
                     100 * md->exact);
        report_value(r, md->md.cfg.attention ? "attn_token" : "base_token", "%.1f",
                     100 * md->token_acc);
    }
    if (run->n_models == 2 && !run->small) {
        const model_t *at = &run->models[0], *bs = &run->models[1];
        report_check_true(r, "attention model: exact match >= 0.99", at->exact >= 0.99);
        report_check_true(r, "attention beats the baseline", at->exact > bs->exact);
    }
}

// ---------------------------------------------------------------------------
// beam search

// Of the n test sentences, how many md's beam search translates otherwise than
// greedy decoding, and how many of those more (*likelier) or less (*rarer)
// probably by the model; *width1 how many width 1 translates otherwise than
// s2s_greedy (none: the same search).
static int beam_changes(const model_t *md, int n, int *likelier, int *rarer,
                        int *width1) {
    int changed = 0;
    *likelier = *rarer = *width1 = 0;
    for (int i = 0; i < n; i++) {
        const int *g = md->test_out + (size_t)i * U_MAX;
        const int *b1 = md->beam1_out + (size_t)i * U_MAX;
        *width1 += memcmp(b1, g, U_MAX * sizeof(int)) != 0;
        if (!memcmp(md->beam_out + (size_t)i * U_MAX, g, U_MAX * sizeof(int))) continue;
        changed++;
        *likelier += md->beam_score[i] > md->beam1_score[i];
        *rarer += md->beam_score[i] < md->beam1_score[i];
    }
    return changed;
}

static void section_beam(report_t *r, const run_t *run) {
    report_section(r, "beam search");
    printf("the baseline's %d test sentences: beam search of width %d beside greedy\n",
           run->test.n, BEAM);
    printf("%-10s %8s %8s %10s %9s %9s %7s\n", "model", "greedy", "beam",
           "beam token", "changed", "likelier", "rarer");
    int width1 = 0;
    for (int k = 0; k < run->n_models; k++) {
        const model_t *md = &run->models[k];
        if (md->md.cfg.attention) continue;
        int likelier, rarer, w1;
        int changed = beam_changes(md, run->test.n, &likelier, &rarer, &w1);
        width1 += w1;
        printf("%-10s %8.4f %8.4f %10.4f %9d %9d %7d\n", md->name, md->exact,
               md->beam_exact, md->beam_token, changed, likelier, rarer);
        report_value(r, "base_greedy_right", "%.0f", round(md->exact * run->test.n));
        report_value(r, "base_beam_right", "%.0f", round(md->beam_exact * run->test.n));
        report_value(r, "base_beam_changed", "%.0f", changed);
        report_value(r, "base_beam_likelier", "%.0f", likelier);
        report_value(r, "base_beam_rarer", "%.0f", rarer);
    }
    report_value(r, "beam", "%.0f", BEAM);
    report_check_true(r, "width 1 translates as greedy decoding", width1 == 0);
}

// ---------------------------------------------------------------------------
// accuracy against length

// The last source length of the length bin that starts at lo: LEN_BIN lengths,
// the last bin running on to MAX_LEN (no tiny last bin).
static int bin_hi(int lo) {
    int hi = lo + LEN_BIN - 1 < MAX_LEN ? lo + LEN_BIN - 1 : MAX_LEN;
    return MAX_LEN - hi < LEN_BIN / 2 ? MAX_LEN : hi;
}

// Exact-match rate of md on the test sentences whose length is in [lo, hi].
static double exact_in(const model_t *md, const mirror_split_t *s, int lo, int hi,
                       int *n) {
    int right = 0, total = 0, tgt[MAX_LEN];
    for (int i = 0; i < s->n; i++) {
        int len = s->len[i], ok = 1;
        if (len < lo || len > hi) continue;
        mirror_translate(s->tok + i * MAX_LEN, len, tgt);
        const int *o = md->test_out + (size_t)i * U_MAX;
        for (int j = 0; j < len; j++) ok &= o[j] == tgt[j];
        ok &= o[len] == S2S_EOS;
        right += ok;
        total++;
    }
    *n = total;
    return total ? (double)right / total : 0.0;
}

static void section_length(report_t *r, const run_t *run) {
    report_section(r, "accuracy against length");
    printf("exact match on the test sentences, by source length\n");
    printf("%-9s %10s", "length", "sentences");
    for (int k = 0; k < run->n_models; k++) printf(" %10s", run->models[k].name);
    printf("\n");
    FILE *f = report_data(r, "length.dat");
    if (f) fprintf(f, "# mid_length n, then exact match per model\n");
    double lo_attn = 1.0, first_base = 0, last_base = 0;
    for (int lo = MIN_LEN; lo <= MAX_LEN; lo += LEN_BIN) {
        int hi = bin_hi(lo), n = 0;
        double ex[2];
        for (int k = 0; k < run->n_models; k++)
            ex[k] = exact_in(&run->models[k], &run->test, lo, hi, &n);
        char range[24];                                 // two ints, whatever -O sees
        snprintf(range, sizeof range, "%d-%d", lo, hi);
        printf("%-9s %10d", range, n);
        if (f) fprintf(f, "%.1f %d", (lo + hi) / 2.0, n);
        for (int k = 0; k < run->n_models; k++) {
            printf(" %10.3f", ex[k]);
            if (f) fprintf(f, " %.4f", ex[k]);
            if (run->models[k].md.cfg.attention) {
                lo_attn = ex[k] < lo_attn ? ex[k] : lo_attn;
            } else {
                if (lo == MIN_LEN) first_base = ex[k];
                last_base = ex[k];
            }
        }
        printf("\n");
        if (f) fprintf(f, "\n");
        if (hi == MAX_LEN) break;
    }
    report_data_close(r, f);
    if (run->n_models == 2 && !run->small) {
        report_check_true(r, "baseline: longest sentences worse than shortest",
                          last_base < first_base);
        report_check_true(r, "attention: >= 0.95 at every length", lo_attn >= 0.95);
        report_value(r, "attn_worst_bin", "%.3f", lo_attn);
        report_value(r, "base_first_bin", "%.3f", first_base);
        report_value(r, "base_last_bin", "%.3f", last_base);
    }
}

// ---------------------------------------------------------------------------
// a wider baseline, trained longer

static void section_wide(report_t *r, const run_t *run) {
    const model_t *bs = &run->models[1], *wd = &run->wide, *at = &run->models[0];
    report_section(r, "a wider baseline, trained longer");
    printf("the baseline again with H = %d: %ld parameters (the attention model: "
           "%ld),\ntrained for %d epochs on the same sentences\n",
           run->wide_hidden, wd->tr.n, at->tr.n, run->wide_epochs);
    printf("%5s %8s %8s %9s\n", "epoch", "train", "val", "val exact");
    FILE *f = report_data(r, "wide_loss.dat");
    if (f) fprintf(f, "# epoch train_loss val_loss val_exact\n");
    int last = run->wide_epochs - 1;
    for (int ep = 0; ep <= last; ep++)
        printf("%5d %8.4f %8.4f %9.3f\n", ep + 1, wd->tr.train_loss[ep],
               wd->tr.val_loss[ep], wd->tr.val_score[ep]);
    trainer_write_curve(f, &wd->tr);
    report_data_close(r, f);
    printf("\n%-9s %10s %10s %10s\n", "length", "sentences", "baseline", "wider");
    int zero_from = 0;   // the shortest length from which the wider gets none right
    int base_after = 0;  // ... the sentences the baseline gets right from there on
    for (int lo = MIN_LEN; lo <= MAX_LEN; lo += LEN_BIN) {
        int hi = bin_hi(lo), n = 0;
        double b = exact_in(bs, &run->test, lo, hi, &n);
        double w = exact_in(wd, &run->test, lo, hi, &n);
        zero_from = w > 0 ? 0 : zero_from ? zero_from : lo;
        base_after = zero_from ? base_after + (int)round(b * n) : 0;
        char range[24];
        snprintf(range, sizeof range, "%d-%d", lo, hi);
        printf("%-9s %10d %10.3f %10.3f\n", range, n, b, w);
        if (hi == MAX_LEN) break;
    }
    printf("%-20s %10.4f %10.4f\n", "test, exact match", bs->exact, wd->exact);
    printf("%-20s %10.4f %10.4f\n", "test, token accuracy", bs->token_acc,
           wd->token_acc);
    report_value(r, "wide_h", "%.0f", run->wide_hidden);
    report_value(r, "wide_epochs", "%.0f", run->wide_epochs);
    report_value(r, "wide_params", "%.0f", (double)wd->tr.n);
    report_value(r, "wide_exact", "%.1f", 100 * wd->exact);
    report_value(r, "wide_train_loss", "%.2f", wd->tr.train_loss[last]);
    report_value(r, "wide_val_loss", "%.2f", wd->tr.val_loss[last]);
    report_value(r, "wide_zero_from", "%.0f", zero_from);
    if (run->small) return;
    report_check_true(r, "wider baseline: more parameters than the attention model",
                      wd->tr.n > at->tr.n);
    report_check_true(r, "wider baseline: still below the attention model",
                      wd->exact < at->exact);
    report_check_true(r, "wider baseline: none right from some length on",
                      zero_from > 0);
    report_check_true(r, "... and neither the chapter's baseline", base_after == 0);
}

// ---------------------------------------------------------------------------
// what the attention model looks at

// The test sentence shown in the heatmap: the first of length want.
static int first_of_len(const mirror_split_t *s, int want) {
    for (int i = 0; i < s->n; i++)
        if (s->len[i] == want) return i;
    return 0;
}

static void write_heatmap(report_t *r, const model_t *md, const mirror_split_t *s,
                          int i, const char *name) {
    FILE *f = report_data(r, name);
    if (!f) return;
    int len = s->len[i], n_out = len + 1;
    const int *o = md->test_out + (size_t)i * U_MAX;
    char buf[3];
    fprintf(f, "x");                              // gnuplot's matrix header row
    for (int t = 0; t < len; t++)
        fprintf(f, " \"%s\"", mirror_src_text(s->tok[i * MAX_LEN + t], buf));
    fprintf(f, "\n");
    for (int j = 0; j < n_out; j++) {
        fprintf(f, "\"%s\"", o[j] == S2S_EOS ? "EOS" : mirror_tgt_text(o[j], buf));
        for (int t = 0; t < len; t++)
            fprintf(f, " %.4f", md->test_alpha[((size_t)i * U_MAX + j) * MAX_LEN + t]);
        fprintf(f, "\n");
    }
    report_data_close(r, f);
}

static void section_alignment(report_t *r, const run_t *run) {
    const model_t *md = &run->models[0];
    const mirror_split_t *s = &run->test;
    report_section(r, "what attention looks at");
    // Over all test outputs: weight on the mirrored source word, len - 1 - j.
    double on_mirror = 0, argmax_hits = 0, near_hits = 0;
    long steps = 0;
    for (int i = 0; i < s->n; i++) {
        int len = s->len[i];
        for (int j = 0; j < len; j++) {
            const float *al = md->test_alpha + ((size_t)i * U_MAX + j) * MAX_LEN;
            int best = 0;
            for (int t = 1; t < len; t++) best = al[t] > al[best] ? t : best;
            on_mirror += al[len - 1 - j];
            argmax_hits += best == len - 1 - j;
            near_hits += abs(best - (len - 1 - j)) <= 1;
            steps++;
        }
    }
    on_mirror /= (double)steps;
    argmax_hits /= (double)steps;
    near_hits /= (double)steps;
    printf("output word j of a sentence of n words translates source word n-1-j.\n");
    printf("over %ld output words of the test set:\n", steps);
    printf("  mean attention weight on source word n-1-j   %.4f\n", on_mirror);
    printf("  share of steps whose largest weight is there %.4f\n", argmax_hits);
    printf("  ... or on one of its two neighbours          %.4f\n", near_hits);
    if (!run->small) {
        report_check_true(r, "largest weight on the mirrored word in >= 90% of steps",
                          argmax_hits >= 0.90);
        report_check_true(r, "... or next to it in >= 99% of steps", near_hits >= 0.99);
    }
    report_value(r, "mirror_near", "%.1f", 100 * near_hits);
    report_value(r, "mirror_weight", "%.3f", on_mirror);
    report_value(r, "mirror_argmax", "%.1f", 100 * argmax_hits);
    int i = first_of_len(s, 9);
    int len = s->len[i];
    printf("\nthe weights for one test sentence (rows: output, columns: source):\n");
    printf("%-5s", "");
    char buf[3];
    for (int t = 0; t < len; t++)
        printf(" %5s", mirror_src_text(s->tok[i * MAX_LEN + t], buf));
    printf("\n");
    const int *o = md->test_out + (size_t)i * U_MAX;
    for (int j = 0; j <= len; j++) {
        printf("%-5s", o[j] == S2S_EOS ? "</s>" : mirror_tgt_text(o[j], buf));
        for (int t = 0; t < len; t++)
            printf(" %5.2f", md->test_alpha[((size_t)i * U_MAX + j) * MAX_LEN + t]);
        printf("\n");
    }
    write_heatmap(r, md, s, i, "align_short.dat");
    write_heatmap(r, md, s, first_of_len(s, MAX_LEN - 6), "align_long.dat");
}

// ---------------------------------------------------------------------------
// example translations

// Word errors of md's output for test sentence i (EOS position included).
static int word_errors(const model_t *md, const mirror_split_t *s, int i) {
    int len = s->len[i], tgt[MAX_LEN], bad = 0;
    mirror_translate(s->tok + i * MAX_LEN, len, tgt);
    const int *o = md->test_out + (size_t)i * U_MAX;
    for (int j = 0; j < len; j++) bad += o[j] != tgt[j];
    return bad + (o[len] != S2S_EOS);
}

static void show_example(const run_t *run, int i) {
    const mirror_split_t *s = &run->test;
    int len = s->len[i], tgt[MAX_LEN + 1];
    mirror_translate(s->tok + i * MAX_LEN, len, tgt);
    tgt[len] = S2S_EOS;
    printf("length %d\n", len);
    print_words("source", s->tok + i * MAX_LEN, len, 0);
    print_words("reference", tgt, len + 1, 1);
    for (int k = 0; k < 2; k++) {
        const model_t *md = &run->models[k];
        char label[16];
        snprintf(label, sizeof label, "%s", md->name);
        print_words(label, md->test_out + (size_t)i * U_MAX, U_MAX, 1);
        printf("%-10s %d wrong\n", "", word_errors(md, s, i));
    }
}

static void section_examples(report_t *r, const run_t *run) {
    const mirror_split_t *s = &run->test;
    report_section(r, "example translations");
    // one short, one middle, one long sentence: the first test sentence of each
    int shown[3] = {first_of_len(s, 6), first_of_len(s, 14), first_of_len(s, MAX_LEN)};
    for (int k = 0; k < 3; k++) {
        if (k) printf("\n");
        show_example(run, shown[k]);
    }
    // How the baseline fails on long sentences: where its first error falls.
    double first_err = 0;
    int n_long = 0, n_wrong = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->len[i] < MAX_LEN - LEN_BIN + 1) continue;
        int len = s->len[i], tgt[MAX_LEN], j = 0;
        mirror_translate(s->tok + i * MAX_LEN, len, tgt);
        const int *o = run->models[1].test_out + (size_t)i * U_MAX;
        while (j < len && o[j] == tgt[j]) j++;
        n_long++;
        if (j < len) {
            first_err += (double)j / len;
            n_wrong++;
        }
    }
    printf("\nbaseline on the %d test sentences of %d..%d words: %d wrong;\n", n_long,
           MAX_LEN - LEN_BIN + 1, MAX_LEN, n_wrong);
    printf("its first wrong word comes on average %.0f%% of the way through\n",
           n_wrong ? 100 * first_err / n_wrong : 0.0);
    report_value(r, "base_long_wrong", "%.0f", n_wrong);
    report_value(r, "base_long_n", "%.0f", n_long);
    report_value(r, "base_first_err", "%.0f",
                 n_wrong ? 100 * first_err / n_wrong : 0.0);
}

// ---------------------------------------------------------------------------
// the Transformer in the same frame

enum { TF_D = 64, TF_HEADS = 4, TF_FF = 128 };

typedef struct {
    float *emb_src, *emb_tgt;   // (V_SRC, TF_D), (V_TGT, TF_D)
    float *pos;                 // (U_MAX, TF_D) sinusoidal positions
    encoder_block_t enc;
    decoder_block_t dec;
    float *w_out, *b_out;       // (TF_D, V_TGT), (V_TGT,)
} frame_t;

// snippet: sinusoid
// pos[p][2i] = sin(p / 10000^(2i/d)), pos[p][2i+1] = cos(same): a small local
// copy of chapter 7's table, so this chapter stands on its own.
static void sinusoid_table(float *pos, int n, int d) {
    for (int p = 0; p < n; p++)
        for (int i = 0; i < d; i += 2) {
            double angle = p / pow(10000.0, (double)i / d);
            pos[p * d + i] = (float)sin(angle);
            if (i + 1 < d) pos[p * d + i + 1] = (float)cos(angle);
        }
}
// end snippet

// ids (n,) -> x (n, TF_D) = table[ids] * sqrt(d) + pos
static void frame_embed(const float *table, const float *pos, const int *ids, int n,
                        float *x) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < TF_D; j++)
            x[i * TF_D + j] = table[ids[i] * TF_D + j] * sqrtf((float)TF_D) +
                              pos[i * TF_D + j];
}

// snippet: transformer_forward
// Chapter 4's encoder and decoder blocks (layers/block.h), untrained, in this
// task's frame; chapter 9 trains the whole Transformer (models/transformer.h).
// One sentence pair: src (m,) with mask (m,), tgt_in (n,) -> logits (n, V_TGT).
static int frame_forward(const frame_t *tf, const int *src, const unsigned char *mask,
                         int m, const int *tgt_in, int n, float *logits) {
    float *x = xfloats(PROG, (size_t)m * TF_D), *enc = xfloats(PROG, (size_t)m * TF_D);
    float *y = xfloats(PROG, (size_t)n * TF_D), *dec = xfloats(PROG, (size_t)n * TF_D);
    unsigned char *self = xmalloc(PROG, (size_t)m * m),
                  *cross = xmalloc(PROG, (size_t)n * m);
    for (int i = 0; i < m; i++)           // padding masks: no query sees a pad key
        for (int j = 0; j < m; j++) self[i * m + j] = mask[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) cross[i * m + j] = mask[j];
    frame_embed(tf->emb_src, tf->pos, src, m, x);
    int rc = encoder_block_forward(&tf->enc, x, m, self, enc, NULL);
    frame_embed(tf->emb_tgt, tf->pos, tgt_in, n, y); // the causal mask is built in
    if (rc == 0)
        rc =
            decoder_block_forward(&tf->dec, y, n, enc, m, NULL, cross, dec, NULL, NULL);
    if (rc == 0) linear_forward(dec, tf->w_out, tf->b_out, logits, n, TF_D, V_TGT);
    free(x), free(enc), free(y), free(dec), free(self), free(cross);
    return rc;
}
// end snippet

static long frame_new(frame_t *tf, rng_t *rng) {
    tf->emb_src = xfloats(PROG, (size_t)V_SRC * TF_D);
    tf->emb_tgt = xfloats(PROG, (size_t)V_TGT * TF_D);
    tf->pos = xfloats(PROG, (size_t)U_MAX * TF_D);
    tf->w_out = xfloats(PROG, (size_t)TF_D * V_TGT);
    tf->b_out = xfloats(PROG, V_TGT);
    xok(PROG, encoder_block_alloc(&tf->enc, TF_D, TF_HEADS, TF_FF),
        "encoder_block_alloc");
    xok(PROG, decoder_block_alloc(&tf->dec, TF_D, TF_HEADS, TF_FF),
        "decoder_block_alloc");
    rng_fill_normal(rng, tf->emb_src, V_SRC * TF_D, 0, 1.0f / sqrtf(TF_D));
    rng_fill_normal(rng, tf->emb_tgt, V_TGT * TF_D, 0, 1.0f / sqrtf(TF_D));
    sinusoid_table(tf->pos, U_MAX, TF_D);
    encoder_block_init(&tf->enc, rng);
    decoder_block_init(&tf->dec, rng);
    linear_init_xavier(rng, tf->w_out, TF_D, V_TGT);
    memset(tf->b_out, 0, V_TGT * sizeof(float));
    return (long)(V_SRC + V_TGT) * TF_D + encoder_block_param_count(&tf->enc) +
           decoder_block_param_count(&tf->dec) + (long)TF_D * V_TGT + V_TGT;
}

static void frame_free(frame_t *tf) {
    free(tf->emb_src), free(tf->emb_tgt), free(tf->pos), free(tf->w_out);
    free(tf->b_out);
    encoder_block_free(&tf->enc);
    decoder_block_free(&tf->dec);
}

static void section_transformer(report_t *r, const run_t *run, rng_t *rng) {
    frame_t tf;
    long n_tf = frame_new(&tf, rng);
    // A padded pair of this task's shapes: a test sentence of 9 words padded to
    // MAX_LEN, and its target input (BOS + 9 words).
    int i = first_of_len(&run->test, 9), len = run->test.len[i], m = MAX_LEN,
        n = len + 1;
    int src[MAX_LEN], tin[U_MAX], tgt[MAX_LEN];
    unsigned char mask[MAX_LEN];
    mirror_translate(run->test.tok + i * MAX_LEN, len, tgt);
    for (int t = 0; t < m; t++) {
        src[t] = t < len ? run->test.tok[i * MAX_LEN + t] : S2S_PAD;
        mask[t] = t < len;
    }
    tin[0] = S2S_BOS;
    for (int j = 1; j < n; j++) tin[j] = tgt[j - 1];
    float *z0 = xfloats(PROG, (size_t)n * V_TGT),
          *z1 = xfloats(PROG, (size_t)n * V_TGT);
    float *z2 = xfloats(PROG, (size_t)n * V_TGT);
    int rc = frame_forward(&tf, src, mask, m, tin, n, z0);
    src[m - 1] = 5;                        // change a padded source word
    rc |= frame_forward(&tf, src, mask, m, tin, n, z1);
    src[m - 1] = S2S_PAD;
    tin[n - 1] = tin[n - 1] == 7 ? 8 : 7;  // change the last target input
    rc |= frame_forward(&tf, src, mask, m, tin, n, z2);
    double d_pad = mat_max_abs_diff(z0, z1, (size_t)n * V_TGT);
    double d_past = mat_max_abs_diff(z0, z2, (size_t)(n - 1) * V_TGT);
    double d_last = mat_max_abs_diff(z0 + (size_t)(n - 1) * V_TGT,
                                     z2 + (size_t)(n - 1) * V_TGT, V_TGT);
    report_section(r, "the transformer in the same frame");
    printf(
        "encoder block + decoder block (chapter 4), d_model %d, %d heads, d_ff %d,\n",
        TF_D, TF_HEADS, TF_FF);
    printf("sinusoidal positions, padding masks; untrained, forward only\n");
    printf("source (%d,) with %d visible words -> encoder (%d, %d)\n", m, len, m, TF_D);
    printf("target input (%d,) -> decoder (%d, %d) -> logits (%d, %d)\n", n, n, TF_D,
           n, V_TGT);
    report_check_true(r, "forward passes succeed", rc == 0);
    report_check(r, "changing a padded source word: max |change|", d_pad, 0);
    report_check(r, "changing the last target input: change before it", d_past, 0);
    report_check_true(r, "... and its own row does change", d_last > 1e-3);
    printf("\n%-34s %10s\n", "model", "parameters");
    for (int k = 0; k < run->n_models; k++)
        printf("%-34s %10ld\n", run->models[k].md.cfg.attention
                                    ? "GRU encoder-decoder + attention"
                                    : "GRU encoder-decoder, no attention",
               run->models[k].tr.n);
    printf("%-34s %10ld\n", "Transformer, 1 + 1 blocks", n_tf);
    report_value(r, "params_tf", "%.0f", (double)n_tf);
    report_value(r, "tf_d", "%.0f", TF_D);
    report_value(r, "tf_heads", "%.0f", TF_HEADS);
    report_value(r, "tf_ff", "%.0f", TF_FF);
    free(z0), free(z1), free(z2);
    frame_free(&tf);
}

// ---------------------------------------------------------------------------
// weights and time

// DIR/name <- the model's parameters as raw little-endian floats.
static void save_weights(report_t *r, const model_t *md, const char *name) {
    FILE *f = report_data(r, name);
    if (!f) return;
    fwrite(md->tr.w, sizeof(float), (size_t)md->tr.n, f);
    report_data_close(r, f);
}

static void section_measured(report_t *r, const run_t *run) {
    report_section(r, "measured training time");
    double total = 0;
    for (int k = 0; k < run->n_models; k++) {
        printf("%-10s %6.1f s for %d epochs\n", run->models[k].name,
               run->models[k].tr.seconds, run->epochs);
        total += run->models[k].tr.seconds;
    }
    if (run->wide.name) {
        printf("%-10s %6.1f s for %d epochs\n", run->wide.name, run->wide.tr.seconds,
               run->wide_epochs);
        total += run->wide.tr.seconds;
    }
    printf("%-10s %6.1f s of processor time on one core, -O3, no threads\n", "total",
           total);
    printf("greedy decoding of the %d test sentences (batches of %d):\n", run->test.n,
           EVAL_BATCH);
    for (int k = 0; k < run->n_models; k++) {
        const model_t *md = &run->models[k];
        long tokens = 0;   // generated, EOS included
        for (size_t i = 0; i < (size_t)run->test.n * U_MAX; i++)
            tokens += md->test_out[i] != S2S_PAD;
        printf("%-10s %6.2f s for %ld tokens: %.1f us per token\n", md->name,
               md->decode_seconds, tokens, 1e6 * md->decode_seconds / (double)tokens);
    }
    for (int k = 0; k < run->n_models; k++)
        if (!run->models[k].md.cfg.attention)
            printf("%-10s %6.2f s for beam search of width %d\n", run->models[k].name,
                   run->models[k].beam_seconds, BEAM);
}

// ---------------------------------------------------------------------------
// setting up, training, tearing down

typedef struct {
    long epochs, hidden, no_attention, small;
} opts_t;

// The random numbers, the splits and the models (attention first).
static void run_setup(run_t *run, const opts_t *o, uint64_t seed) {
    int small = (int)o->small;
    *run = (run_t){.epochs = small ? 1 : (int)o->epochs,
                   .hidden = small ? 8 : (int)o->hidden, .emb = 16,
                   .n_train = small ? 300 : N_TRAIN, .small = small,
                   .n_models = o->no_attention ? 1 : 2};
    run->attn = run->hidden;
    // the book's run: 1.5 times as wide, twice as long (--small: a tiny one)
    run->wide_hidden = small ? 12 : WIDE_H;
    run->wide_epochs = 2 * run->epochs;
    rng_seed(&run->rng, seed);
    const char *msm = "mirror_split_make";
    xok(PROG, mirror_split_make(&run->train, run->n_train, 1, &run->rng), msm);
    xok(PROG, mirror_split_make(&run->val, small ? 100 : N_VAL, 0, &run->rng), msm);
    xok(PROG, mirror_split_make(&run->test, small ? 200 : N_TEST, 0, &run->rng), msm);
    if (o->no_attention) {
        model_new(&run->models[0], "baseline", 0, run, run->hidden, run->epochs,
                  &run->rng);
    } else {
        model_new(&run->models[0], "attention", 1, run, run->hidden, run->epochs,
                  &run->rng);
        model_new(&run->models[1], "baseline", 0, run, run->hidden, run->epochs,
                  &run->rng);
    }
}

// Each model in turn: train, decode the test split (timed), save the weights.
static void run_train(report_t *r, run_t *run) {
    for (int k = 0; k < run->n_models; k++) {
        model_t *md = &run->models[k];
        train(md, run, &run->rng);
        double t0 = clock_cpu_seconds();
        md->exact = split_decode(md, &run->test, &run->bb, md->test_out, md->test_alpha,
                                 &md->token_acc);
        md->decode_seconds = clock_cpu_seconds() - t0;
        test_beam(md, run);
        save_weights(r, md,
                     md->md.cfg.attention ? "weights_attn.bin" : "weights_base.bin");
    }
}

// The wider baseline, trained longer on the same sentences, then the test split
// decoded greedily. Its own random numbers (a copy of run's), so that the
// sections after it draw what they drew without it.
static void run_wide(run_t *run) {
    rng_t rng = run->rng;
    model_t *md = &run->wide;
    model_new(md, "wider", 0, run, run->wide_hidden, run->wide_epochs, &rng);
    train(md, run, &rng);
    md->exact = split_decode(md, &run->test, &run->bb, md->test_out, NULL,
                             &md->token_acc);
}

static void run_free(run_t *run) {
    for (int k = 0; k < run->n_models; k++) model_free(&run->models[k]);
    if (run->wide.name) model_free(&run->wide);
    mirror_split_free(&run->train);
    mirror_split_free(&run->val);
    mirror_split_free(&run->test);
}

// ---------------------------------------------------------------------------
// main

int main(int argc, char **argv) {
    opts_t o = {.epochs = 10, .hidden = 32};
    const cli_opt_t opts[] = {
        {.name = "--epochs", .meta = "N", .help = "training epochs for each model",
         .kind = CLI_INT, .ival = &o.epochs, .min = 1, .max = TRAINER_MAX_EPOCHS},
        {.name = "--hidden", .meta = "N", .help = "GRU width H (and attention width)",
         .kind = CLI_INT, .ival = &o.hidden, .min = 2, .max = 256},
        {.name = "--no-attention", .help = "train and report only the baseline",
         .kind = CLI_FLAG, .ival = &o.no_attention},
        {.name = "--small", .help = "tiny run for the tests: 1 epoch, H = 8, no claims",
         .kind = CLI_FLAG, .ival = &o.small},
    };
    cli_t cli = {.program = PROG,
                 .summary = "Chapter 8: a seq2seq model with attention, trained in C.",
                 .opts = opts, .n_opts = sizeof opts / sizeof opts[0], .seed = 42};
    report_t r;
    int rc = program_start(&cli, &r, argc, argv);
    if (rc >= 0) return rc;
    static run_t run;
    run_setup(&run, &o, cli.seed);
    run_train(&r, &run);
    section_task(&r, &run);
    section_models(&r, &run);
    section_training(&r, &run);
    section_test(&r, &run);
    section_beam(&r, &run);
    section_length(&r, &run);
    if (!o.no_attention) {
        run_wide(&run);
        section_wide(&r, &run);
        section_alignment(&r, &run);
        section_examples(&r, &run);
    }
    section_transformer(&r, &run, &run.rng);
    section_measured(&r, &run);
    run_free(&run);
    return report_close(&r) == 0 ? 0 : 1;
}
