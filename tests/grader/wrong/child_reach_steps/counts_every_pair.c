// MISTAKE: counts every unreachable pair as missing, not only the causal ones.
            if (mask[(long)i * n + j]) s = 1;
            for (int k = 0; k < n && !s; k++)
                if (mask[(long)i * n + k] && mask[(long)k * n + j]) s = 2;
            if (!s) missing++;
