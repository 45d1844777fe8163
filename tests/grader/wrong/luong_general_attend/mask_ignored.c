// MISTAKE: ignores the mask, so hidden positions take weight.
    float max = -INFINITY;
    for (int t = 0; t < t_len; t++)
        if (alpha[t] > max) max = alpha[t];
    double sum = 0.0;
    for (int t = 0; t < t_len; t++) {
        alpha[t] = expf(alpha[t] - max);
        sum += alpha[t];
    }
    for (int t = 0; t < t_len; t++)
        alpha[t] = sum > 0.0 ? (float)(alpha[t] / sum) : 0.0f;
    for (int b = 0; b < k; b++) {
        double acc = 0.0;
        for (int t = 0; t < t_len; t++) acc += (double)alpha[t] * ann[(long)t * k + b];
        c[b] = (float)acc;
    }
