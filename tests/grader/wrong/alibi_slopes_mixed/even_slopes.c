// MISTAKE: takes slopes 2, 4, 6, ... of the 2p-head sequence, repeating the first p.
    for (int h = 1; h <= p; h++) slopes[h - 1] = (float)exp2(-8.0 * h / p);
    for (int h = 1; h <= heads - p; h++)
        slopes[p + h - 1] = (float)exp2(-8.0 * (2 * h) / (2 * p));
