// MISTAKE: adds the normalised z on the residual path instead of x.
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    ffn_forward(f, z, hidden, y, n);
    for (long i = 0; i < (long)n * d; i++) y[i] += z[i];
