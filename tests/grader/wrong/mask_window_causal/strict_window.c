// MISTAKE: uses i - j < w, so the window holds one token too few.
            visible = j <= i && i - j < w;
