// MISTAKE: writes dy - softmax, as if dy summed to 1.
    double total = 0.0;
    for (int i = 0; i < n; i++) total += dy[i];
    for (int i = 0; i < n; i++) dx[i] = (float)(dy[i] - exp((double)y[i]));
