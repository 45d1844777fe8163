// MISTAKE: gates with SiLU(a), SwiGLU's gate, instead of GELU(a).
        out = a[i] / (1.0 + exp(-(double)a[i])) * b[i];
