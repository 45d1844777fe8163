// MISTAKE: moves the argmax on equal logits too, so a tie goes to the largest index.
    for (int i = 0; i < n; i++) {
        int y = targets[i];
        if (y == ignore || y < 0 || y >= v) continue;
        const float *z = logits + (size_t)i * v;
        int top = 0;
        for (int j = 1; j < v; j++)
            if (z[j] >= z[top]) top = j;
        right += top == y;
        (*count)++;
    }
