// MISTAKE: counts a sequence of padding only, as a right one.
    for (int s = 0; s < b; s++) {
        int counted = 0, all_right = 1;
        for (int i = s * t; i < (s + 1) * t; i++) {
            int y = targets[i];
            if (y == ignore || y < 0 || y >= v) continue;
            const float *z = logits + (size_t)i * v;
            int top = 0;
            for (int j = 1; j < v; j++)
                if (z[j] > z[top]) top = j;
            counted = 1;
            all_right &= top == y;
        }
        (void)counted;
        exact += all_right;
        (*count)++;
    }
