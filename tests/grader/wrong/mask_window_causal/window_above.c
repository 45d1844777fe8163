// MISTAKE: puts the window on the wrong side of the diagonal (keys j >= i, the future).
            visible = j >= i && j - i <= w;
