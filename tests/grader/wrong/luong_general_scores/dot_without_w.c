// MISTAKE: takes Luong's "dot" score s . h, leaving W out.
        for (int a = 0; a < sd && a < k; a++) e += (double)s[a] * h[a];
