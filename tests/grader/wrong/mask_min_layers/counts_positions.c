// MISTAKE: counts the positions on the path instead of the steps, one layer too many.
    for (int i = 0; i < n; i++) {
        int *row = depth + (size_t)i * n;
        for (int j = 0; j < n; j++) row[j] = j == i ? 1 : -1;
        for (int layer = 2, grew = 1; grew; layer++) {
            grew = 0;
            for (int k = 0; k < n; k++) {
                if (row[k] != layer - 1) continue;
                for (int j = 0; j < n; j++)
                    if (row[j] < 0 && mask[(size_t)k * n + j]) {
                        row[j] = layer;
                        grew = 1;
                    }
            }
        }
        row[i] = 0;
    }
