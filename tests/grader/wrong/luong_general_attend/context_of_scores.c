// MISTAKE: forgets to normalise, weighting the annotations by exp(score - max) instead of alpha.
    float max = -INFINITY;
    for (int t = 0; t < t_len; t++)
        if ((!mask || mask[t]) && alpha[t] > max) max = alpha[t];
    for (int t = 0; t < t_len; t++)
        alpha[t] = (!mask || mask[t]) ? expf(alpha[t] - max) : 0.0f;
    for (int b = 0; b < k; b++) {
        double acc = 0.0;
        for (int t = 0; t < t_len; t++) acc += (double)alpha[t] * ann[(long)t * k + b];
        c[b] = (float)acc;
    }
