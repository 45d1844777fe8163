// MISTAKE: takes the last c + 1 positions as the summary.
            visible = j <= i && (j / l == i / l || j % l >= l - c - 1);
