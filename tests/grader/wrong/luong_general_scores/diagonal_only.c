// MISTAKE: uses only the diagonal of W, s[a] W[a][a] h[a].
        for (int a = 0; a < sd && a < k; a++) e += (double)s[a] * w[(long)a * k + a] * h[a];
