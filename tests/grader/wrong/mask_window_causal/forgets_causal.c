// MISTAKE: builds the two-sided band |i - j| <= w, letting queries see the future.
            visible = abs(i - j) <= w;
