// MISTAKE: gives ffn_backward the raw x as the network's input instead of z.
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    ffn_forward(f, z, hidden, out, n);
    ffn_backward(f, gf, x, hidden, dy, dz, n, scratch);   // dz = dL/dLayerNorm(x)
    layernorm_backward(x, ln->gamma, dz, dx, gln->gamma, gln->beta, n, d, SUBLAYER_EPS);
    for (size_t i = 0; i < nd; i++) dx[i] += dy[i];       // the residual path
