// MISTAKE: writes -p log p: the softmax backward's centering term is lost.
    double max = x[0];
    for (int i = 1; i < n; i++)
        if (x[i] > max) max = x[i];
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += exp(x[i] - max);
    double lse = max + log(sum);
    for (int i = 0; i < n; i++) h -= exp(x[i] - lse) * (x[i] - lse);
    for (int i = 0; i < n; i++) dx[i] = (float)(-exp(x[i] - lse) * (x[i] - lse));
