// beam.c -- beam search over a bigram table, with back-pointers.
#include "data/beam.h"

#include <stdint.h>
#include <stdlib.h>

// One hypothesis: its score, the hypothesis it extends (an index into the
// previous step's row of the history, -1 for the start), its last token.
typedef struct {
    double score;
    int parent, token;
} beam_hyp_t;

// out (step + 1,) <- the tokens of hypothesis i of step `step`, read backwards
// through the parents in hist (steps, beam).
static void beam_trace(const beam_hyp_t *hist, int beam, int step, int i, int *out) {
    for (int s = step; s >= 0; s--) {
        out[s] = hist[(size_t)s * beam + i].token;
        i = hist[(size_t)s * beam + i].parent;
    }
}

int beam_search(const float *logp, int v, int start, int end, int beam, int max_len,
                int *out, double *score) {
    if (v < 1 || beam < 1 || max_len < 1 || start < 0 || start >= v || end < 0 ||
        end >= v)
        return -1;
    if ((size_t)beam > SIZE_MAX / sizeof(beam_hyp_t) / (size_t)v / (size_t)max_len)
        return -1;
    beam_hyp_t *hist = malloc((size_t)max_len * beam * sizeof *hist);
    beam_hyp_t *cand = malloc((size_t)beam * v * sizeof *cand);
    unsigned char *taken = malloc((size_t)beam * v);
    int len = -1;
    if (!hist || !cand || !taken) goto done;
    // BEGIN SOLUTION
    int alive = 1, width = beam, best_step = -1, best_i = -1;
    double best = 0.0;
    for (int step = 0; step < max_len && width > 0; step++) {
        int n = 0;                               // candidates, in generation order
        for (int i = 0; i < alive; i++) {
            const beam_hyp_t *h = step ? &hist[(size_t)(step - 1) * beam + i] : NULL;
            if (h && h->token == end) continue;  // finished: not extended
            int last = h ? h->token : start;
            double base = h ? h->score : 0.0;
            for (int b = 0; b < v; b++, n++)
                cand[n] = (beam_hyp_t){base + logp[(size_t)last * v + b], i, b};
        }
        for (int c = 0; c < n; c++) taken[c] = 0;
        int kept = 0, pick = width < n ? width : n;
        for (int r = 0; r < pick; r++) {         // the best `pick`, one at a time
            int top = -1;
            for (int c = 0; c < n; c++)
                if (!taken[c] && (top < 0 || cand[c].score > cand[top].score)) top = c;
            taken[top] = 1;
            hist[(size_t)step * beam + kept] = cand[top];
            int done_here = cand[top].token == end;
            if ((done_here || step == max_len - 1) &&
                (best_step < 0 || cand[top].score > best))
                best = cand[top].score, best_step = step, best_i = kept;
            width -= done_here;                  // a finished one leaves the beam
            kept++;
        }
        alive = kept;
    }
    beam_trace(hist, beam, best_step, best_i, out);
    *score = best;
    len = best_step + 1;
    // END SOLUTION
done:
    free(hist);
    free(cand);
    free(taken);
    return len;
}
