// MISTAKE: strict causality after the prefix (j < i), so a later token does not see itself.
            visible = j < i || (i < prefix && j < prefix);
