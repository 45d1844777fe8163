// MISTAKE: applies GELU to the value half b and lets a through unchanged.
        out = geglu_gelu(b[i]) * a[i];
