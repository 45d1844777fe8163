// MISTAKE: only considers sequences of exactly max_len tokens, so a sequence that ends early never wins.
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
            if (t < max_len - 1) continue;
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
