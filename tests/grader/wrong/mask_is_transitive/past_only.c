// MISTAKE: only looks at k < i, as if every mask were causal.
    for (int i = 0; i < n; i++)
        for (int k = 0; k < i; k++) {
            if (!mask[(size_t)i * n + k]) continue;
            for (int j = 0; j < n; j++)
                if (mask[(size_t)k * n + j] && !mask[(size_t)i * n + j]) return 0;
        }
    return 1;
