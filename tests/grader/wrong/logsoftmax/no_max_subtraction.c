// MISTAKE: sums exp(x_i) unshifted: huge logits overflow to inf.
    float max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += exp((double)x[i]);
    double lse = log(sum);
    for (int i = 0; i < n; i++) x[i] = (float)(x[i] - lse);
