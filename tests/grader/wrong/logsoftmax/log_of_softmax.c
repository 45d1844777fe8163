// MISTAKE: takes the log of the float softmax: an underflowed probability gives -inf.
    float max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += exp((double)x[i] - max);
    double lse = max + log(sum);
    for (int i = 0; i < n; i++) x[i] = logf((float)(exp((double)x[i] - max) / sum));
    (void)lse;
