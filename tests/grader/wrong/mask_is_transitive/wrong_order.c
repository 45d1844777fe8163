// MISTAKE: composes the steps the wrong way round (k sees i and j sees k).
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            if (!mask[(size_t)k * n + i]) continue;
            for (int j = 0; j < n; j++)
                if (mask[(size_t)k * n + j] && !mask[(size_t)i * n + j]) return 0;
        }
    return 1;
