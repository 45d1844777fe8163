// MISTAKE: counts a sequence when any row is right, not all of them.
    for (int s = 0; s < b; s++) {
        int counted = 0, all_right = 0;
        for (int i = s * t; i < (s + 1) * t; i++) {
            int y = targets[i];
            if (y == ignore || y < 0 || y >= v) continue;
            const float *z = logits + (size_t)i * v;
            int top = 0;
            for (int j = 1; j < v; j++)
                if (z[j] > z[top]) top = j;
            counted = 1;
            all_right |= top == y;
        }
        if (!counted) continue;
        exact += all_right;
        (*count)++;
    }
