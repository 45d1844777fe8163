// MISTAKE: rounds up to the next power of 2 and keeps its first heads slopes.
    int up = p < heads ? 2 * p : p;
    for (int h = 1; h <= heads; h++) slopes[h - 1] = (float)exp2(-8.0 * h / up);
