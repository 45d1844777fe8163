// MISTAKE: builds the post-norm LayerNorm(x + MHA(x)) instead.
    rc = mha_forward(p, x, n, x, n, mask, y, NULL);
    for (long i = 0; i < (long)n * d; i++) y[i] += x[i];
    layernorm_forward(y, ln->gamma, ln->beta, y, n, d, SUBLAYER_EPS);
