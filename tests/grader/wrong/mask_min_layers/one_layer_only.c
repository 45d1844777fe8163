// MISTAKE: looks one layer deep only: 1 where the mask is visible, -1 everywhere else.
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            depth[(size_t)i * n + j] = i == j ? 0 : mask[(size_t)i * n + j] ? 1 : -1;
