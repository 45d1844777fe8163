// MISTAKE: indexes the mask as if it were square, mask[i n + j] instead of mask[i m + j].
        for (int j = 0; j < m; j++) {
            if (!mask[(size_t)i * n + j]) continue;
            count++;
            if (abs(i - j) > s.farthest) s.farthest = abs(i - j);
        }
