// MISTAKE: zeroes dx first, losing the gradient it already held.
    for (size_t i = 0; i < nd; i++) dx[i] = 0.0f;
    layernorm_forward(x, ln->gamma, ln->beta, z, n, d, SUBLAYER_EPS);
    ffn_forward(f, z, hidden, out, n);
    ffn_backward(f, gf, z, hidden, dy, dz, n, scratch);   // dz = dL/dLayerNorm(x)
    layernorm_backward(x, ln->gamma, dz, dx, gln->gamma, gln->beta, n, d, SUBLAYER_EPS);
    for (size_t i = 0; i < nd; i++) dx[i] += dy[i];       // the residual path
