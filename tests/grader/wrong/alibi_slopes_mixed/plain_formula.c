// MISTAKE: uses 2^(-8 h / heads) for every head count, as alibi_slopes does.
    for (int h = 1; h <= heads; h++) slopes[h - 1] = (float)exp2(-8.0 * h / heads);
