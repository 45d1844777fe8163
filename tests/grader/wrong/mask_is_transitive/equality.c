// MISTAKE: checks M^2 == M instead of M^2 <= M, refusing masks whose square is smaller.
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int two = 0;
            for (int k = 0; k < n; k++)
                two |= mask[(size_t)i * n + k] && mask[(size_t)k * n + j];
            if (two != mask[(size_t)i * n + j]) return 0;
        }
    return 1;
