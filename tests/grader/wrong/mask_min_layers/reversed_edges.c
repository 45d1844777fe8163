// MISTAKE: follows the edges backwards (k sees i), the direction information does not flow.
    for (int i = 0; i < n; i++) {
        int *row = depth + (size_t)i * n;
        for (int j = 0; j < n; j++) row[j] = j == i ? 0 : -1;
        for (int layer = 1, grew = 1; grew; layer++) {
            grew = 0;
            for (int k = 0; k < n; k++) {
                if (row[k] != layer - 1) continue;
                for (int j = 0; j < n; j++)
                    if (row[j] < 0 && mask[(size_t)j * n + k]) {
                        row[j] = layer;
                        grew = 1;
                    }
            }
        }
    }
