// MISTAKE: forgets j <= i: summary keys of later blocks are visible.
            visible = j / l == i / l || j % l >= l - c;
