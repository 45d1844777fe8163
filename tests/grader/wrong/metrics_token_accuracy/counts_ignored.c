// MISTAKE: counts the ignored rows as well, diluting the accuracy with padding.
    for (int i = 0; i < n; i++) {
        int y = targets[i];
        const float *z = logits + (size_t)i * v;
        int top = 0;
        for (int j = 1; j < v; j++)
            if (z[j] > z[top]) top = j;
        right += y >= 0 && y < v && top == y;
        (*count)++;
    }
