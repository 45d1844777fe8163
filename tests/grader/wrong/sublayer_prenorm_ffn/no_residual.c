// MISTAKE: forgets the residual: y = FFN(LayerNorm(x)).
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    ffn_forward(f, z, hidden, y, n);
