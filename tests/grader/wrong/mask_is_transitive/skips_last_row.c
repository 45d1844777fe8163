// MISTAKE: stops one query early (i < n - 1), so a violation in the last row goes unseen.
    for (int i = 0; i < n - 1; i++)
        for (int k = 0; k < n; k++) {
            if (!mask[(size_t)i * n + k]) continue;
            for (int j = 0; j < n; j++)
                if (mask[(size_t)k * n + j] && !mask[(size_t)i * n + j]) return 0;
        }
    return 1;
