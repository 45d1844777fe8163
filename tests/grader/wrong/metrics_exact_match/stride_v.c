// MISTAKE: steps to the next sequence by V rows instead of T.
    for (int s = 0; s < b; s++) {
        int counted = 0, all_right = 1;
        for (int i = s * t; i < s * t + t && i < b * t; i++) {
            int y = targets[i];
            if (y == ignore || y < 0 || y >= v) continue;
            const float *z = logits + (size_t)i * t;
            int top = 0;
            for (int j = 1; j < v; j++)
                if (z[j] > z[top]) top = j;
            counted = 1;
            all_right &= top == y;
        }
        if (!counted) continue;
        exact += all_right;
        (*count)++;
    }
