// beam.c -- beam search with back-pointers, for a model or a bigram table; the
// exact search over a table by dynamic programming.
#include "data/beam.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int beam_begin(beam_t *s, int v, int end, int beam, int max_len) {
    *s = (beam_t){0};
    if (v < 1 || beam < 1 || max_len < 1 || end < 0 || end >= v) return -1;
    if ((size_t)beam > SIZE_MAX / sizeof(beam_hyp_t) / (size_t)v / (size_t)max_len)
        return -1;
    *s = (beam_t){.v = v, .end = end, .beam = beam, .max_len = max_len, .alive = 1,
                  .width = beam, .open = 1, .best_step = -1, .best_i = -1};
    s->hist = malloc((size_t)max_len * beam * sizeof *s->hist);
    s->cand = malloc((size_t)beam * v * sizeof *s->cand);
    s->taken = malloc((size_t)beam * v);
    if (s->hist && s->cand && s->taken) return 0;
    beam_end(s, NULL, NULL);
    return -1;
}

// snippet: beam_step
int beam_step(beam_t *s, const float *logp) {
    if (!s->hist || s->open < 1 || s->step >= s->max_len || s->width < 1) return 0;
    int v = s->v, step = s->step, n = 0;
    const beam_hyp_t *last = step ? s->hist + (size_t)(step - 1) * s->beam : NULL;
    for (int i = 0; i < s->alive; i++) {         // candidates, in generation order
        if (last && last[i].token == s->end) continue;   // finished: not extended
        double base = last ? last[i].score : 0.0;
        for (int b = 0; b < v; b++, n++)
            s->cand[n] = (beam_hyp_t){base + logp[(size_t)i * v + b], i, b};
    }
    memset(s->taken, 0, (size_t)n);
    beam_hyp_t *row = s->hist + (size_t)step * s->beam;
    int kept = 0, pick = s->width < n ? s->width : n;
    s->open = 0;
    for (; kept < pick; kept++) {                // the best `pick`, one at a time
        int top = -1;
        for (int c = 0; c < n; c++)
            if (!s->taken[c] && (top < 0 || s->cand[c].score > s->cand[top].score))
                top = c;
        s->taken[top] = 1;
        row[kept] = s->cand[top];
        int done = row[kept].token == s->end;
        if ((done || step == s->max_len - 1) &&
            (s->best_step < 0 || row[kept].score > s->best))
            s->best = row[kept].score, s->best_step = step, s->best_i = kept;
        s->width -= done;                        // a finished one leaves the beam
        s->open += !done;
    }
    s->alive = kept;
    s->step++;
    return s->step < s->max_len && s->width > 0 && s->open > 0;
}

int beam_end(beam_t *s, int *out, double *score) {
    int len = 0;
    if (out && score && s->hist && s->best_step >= 0) {
        for (int t = s->best_step, i = s->best_i; t >= 0; t--) {   // back-pointers
            out[t] = s->hist[(size_t)t * s->beam + i].token;
            i = s->hist[(size_t)t * s->beam + i].parent;
        }
        *score = s->best;
        len = s->best_step + 1;
    }
    free(s->hist);
    free(s->cand);
    free(s->taken);
    *s = (beam_t){0};
    return len;
}
// end snippet

int beam_search(const float *logp, int v, int start, int end, int beam, int max_len,
                int *out, double *score) {
    beam_t s;
    if (start < 0 || start >= v || beam_begin(&s, v, end, beam, max_len)) return -1;
    float *rows = malloc((size_t)beam * v * sizeof *rows);
    if (!rows) {
        beam_end(&s, NULL, NULL);
        return -1;
    }
    do {                    // row i: the table's row of hypothesis i's last token
        const beam_hyp_t *last = s.step ? s.hist + (size_t)(s.step - 1) * beam : NULL;
        for (int i = 0; i < s.alive; i++) {
            int prev = last ? last[i].token : start;
            memcpy(rows + (size_t)i * v, logp + (size_t)prev * v,
                   (size_t)v * sizeof *rows);
        }
    } while (beam_step(&s, rows));
    free(rows);
    return beam_end(&s, out, score);
}

int beam_viterbi(const float *logp, int v, int start, int end, int max_len, int *out,
                 double *score) {
    if (v < 1 || max_len < 1 || start < 0 || start >= v || end < 0 || end >= v)
        return -1;
    if ((size_t)max_len > SIZE_MAX / sizeof(double) / (size_t)v) return -1;
    size_t size = (size_t)max_len * v;
    double *f = malloc(size * sizeof *f);      // f[t V + b]: the best t + 1 tokens
    int *back = malloc(size * sizeof *back);   // ending in b; back: the token before
    int len = -1;
    if (!f || !back) goto done;
    // BEGIN SOLUTION
    for (int b = 0; b < v; b++) f[b] = logp[(size_t)start * v + b];
    for (int t = 1; t < max_len; t++)
        for (int b = 0; b < v; b++) {
            double top = -INFINITY;
            int arg = -1;
            for (int a = 0; a < v; a++) {        // a sequence goes on only before end
                if (a == end) continue;
                double x = f[(size_t)(t - 1) * v + a] + logp[(size_t)a * v + b];
                if (arg < 0 || x > top) top = x, arg = a;
            }
            f[(size_t)t * v + b] = top;
            back[(size_t)t * v + b] = arg;
        }
    int best_t = -1, best_b = -1;
    for (int t = 0; t < max_len; t++)           // finished at t, or cut at max_len
        for (int b = 0; b < v; b++) {
            if (b != end && t < max_len - 1) continue;
            double x = f[(size_t)t * v + b];
            if (best_t < 0 || x > f[(size_t)best_t * v + best_b])
                best_t = t, best_b = b;
        }
    *score = f[(size_t)best_t * v + best_b];
    for (int t = best_t, b = best_b; t >= 0; t--) {
        out[t] = b;
        if (t > 0) b = back[(size_t)t * v + b];
    }
    len = best_t + 1;
    // END SOLUTION
done:
    free(f);
    free(back);
    return len;
}
