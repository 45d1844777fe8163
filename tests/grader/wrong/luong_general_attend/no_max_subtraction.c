// MISTAKE: exponentiates the raw scores without subtracting the maximum, overflowing on large ones.
    double sum = 0.0;
    for (int t = 0; t < t_len; t++) {
        alpha[t] = (!mask || mask[t]) ? expf(alpha[t]) : 0.0f;
        sum += alpha[t];
    }
    for (int t = 0; t < t_len; t++)
        alpha[t] = sum > 0.0 ? (float)(alpha[t] / sum) : 0.0f;
    for (int b = 0; b < k; b++) {
        double acc = 0.0;
        for (int t = 0; t < t_len; t++) acc += (double)alpha[t] * ann[(long)t * k + b];
        c[b] = (float)acc;
    }
