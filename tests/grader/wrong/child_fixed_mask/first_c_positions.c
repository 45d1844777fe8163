// MISTAKE: takes the first c positions of each block as its summary.
            visible = j <= i && (j / l == i / l || j % l < c);
