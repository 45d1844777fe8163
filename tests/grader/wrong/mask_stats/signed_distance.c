// MISTAKE: measures the distance as i - j, so a visible key after the query never counts.
        for (int j = 0; j < m; j++) {
            if (!mask[(size_t)i * m + j]) continue;
            count++;
            if (i - j > s.farthest) s.farthest = i - j;
        }
