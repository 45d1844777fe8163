// MISTAKE: forgets the residual path: dx misses dy.
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    ffn_forward(f, z, hidden, out, n);
    ffn_backward(f, gf, z, hidden, dy, dz, n, scratch);   // dz = dL/dLayerNorm(x)
    layernorm_backward(x, ln->gamma, dz, dx, gln->gamma, gln->beta, n, d, SUBLAYER_EPS);
