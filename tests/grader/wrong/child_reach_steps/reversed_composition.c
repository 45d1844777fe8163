// MISTAKE: composes the mask the wrong way round: k sees i and j sees k.
            if (mask[(long)i * n + j]) s = 1;
            for (int k = 0; k < n && !s; k++)
                if (mask[(long)k * n + i] && mask[(long)j * n + k]) s = 2;
            if (j <= i && !s) missing++;
