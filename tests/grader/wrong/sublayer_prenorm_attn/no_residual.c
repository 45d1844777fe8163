// MISTAKE: forgets the residual: y = MHA(z, z).
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    rc = mha_forward(p, z, n, z, n, mask, y, NULL);
