// MISTAKE: gates with ReLU(a) instead of GELU(a).
        out = (a[i] > 0.0f ? a[i] : 0.0f) * b[i];
