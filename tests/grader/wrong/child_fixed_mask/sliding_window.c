// MISTAKE: uses a window of l keys (i - j < l) instead of i's block.
            visible = j <= i && (i - j < l || j % l >= l - c);
