// MISTAKE: looks only for paths through some k, so a direct edge gets 2 (through the diagonal) or 0.
            for (int k = 0; k < n && !s; k++)
                if (mask[(long)i * n + k] && mask[(long)k * n + j]) s = 2;
            if (j <= i && !s) missing++;
