// MISTAKE: treats the end token like any other and keeps extending after it.
    int alive = 1, width = beam, best_step = -1, best_i = -1;
    double best = 0.0;
    for (int step = 0; step < max_len && width > 0; step++) {
        int n = 0;                               // candidates, in generation order
        for (int i = 0; i < alive; i++) {
            const beam_hyp_t *h = step ? &hist[(size_t)(step - 1) * beam + i] : NULL;
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
            int done_here = 0;
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
