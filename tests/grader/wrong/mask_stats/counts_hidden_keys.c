// MISTAKE: counts every key of the row, hidden ones too.
        for (int j = 0; j < m; j++) {
            count++;
            if (!mask[(size_t)i * m + j]) continue;
            if (abs(i - j) > s.farthest) s.farthest = abs(i - j);
        }
