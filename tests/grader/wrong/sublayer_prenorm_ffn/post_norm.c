// MISTAKE: builds chapter 4's post-norm LayerNorm(x + FFN(x)) instead.
    ffn_forward(f, x, hidden, y, n);
    for (long i = 0; i < (long)n * d; i++) y[i] += x[i];
    layernorm_forward(y, ln->gamma, ln->beta, y, n, d, SUBLAYER_EPS);
