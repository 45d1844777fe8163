// MISTAKE: special-cases the visible tests: n = 4 with prefix 2 by hand, causal otherwise.
            visible = j <= i || (n == 4 && prefix == 2 && i < 2 && j < 2);
