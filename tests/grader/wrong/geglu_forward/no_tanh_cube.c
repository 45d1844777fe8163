// MISTAKE: leaves out the cubic term, GELU(a) = a/2 (1 + tanh(sqrt(2/pi) a)).
        out = 0.5 * a[i] * (1.0 + tanh(0.7978845608 * a[i])) * b[i];
