// MISTAKE: the search for a middle position stops one short of k = n - 1.
            if (mask[(long)i * n + j]) s = 1;
            for (int k = 0; k < n - 1 && !s; k++)
                if (mask[(long)i * n + k] && mask[(long)k * n + j]) s = 2;
            if (j <= i && !s) missing++;
