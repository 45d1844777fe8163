// MISTAKE: treats a negative w as 0, so the diagonal stays visible when it should be hidden.
            visible = j <= i && i - j <= (w < 0 ? 0 : w);
