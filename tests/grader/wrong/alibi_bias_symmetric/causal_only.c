// MISTAKE: copies the causal bias, leaving 0 above the diagonal.
            b = j <= i ? -slope * (float)(i - j) : 0.0f;
