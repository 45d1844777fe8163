// MISTAKE: puts the extra heads' slopes in front instead of after the first p.
    for (int h = 1; h <= heads - p; h++)
        slopes[h - 1] = (float)exp2(-8.0 * (2 * h - 1) / (2 * p));
    for (int h = 1; h <= p; h++) slopes[heads - p + h - 1] = (float)exp2(-8.0 * h / p);
