// MISTAKE: stops one key early (j < m - 1), so the last column is never counted.
        for (int j = 0; j < m - 1; j++) {
            if (!mask[(size_t)i * m + j]) continue;
            count++;
            if (abs(i - j) > s.farthest) s.farthest = abs(i - j);
        }
