// MISTAKE: adds the softmax term instead of subtracting it.
    double total = 0.0;
    for (int i = 0; i < n; i++) total += dy[i];
    for (int i = 0; i < n; i++) dx[i] = (float)(dy[i] + exp((double)y[i]) * total);
