// MISTAKE: gives b the gradient dh times a instead of dh times GELU(a).
        // Inverts: h = GELU(a) b. With u = sqrt(2/pi) (a + c a^3), t = tanh(u):
        // GELU(a) = a (1 + t) / 2 and dGELU/da = (1 + t) / 2 + a (1 - t^2) u' / 2,
        // u' = sqrt(2/pi) (1 + 3 c a^2).
        double t = tanh(SQRT_2_OVER_PI * (x + GELU_C * x * x * x));
        double du = SQRT_2_OVER_PI * (1.0 + 3.0 * GELU_C * x * x);
        double dgelu = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * du;
        da[i] += (float)(g * b[i] * dgelu);
        db[i] += (float)(g * x);
