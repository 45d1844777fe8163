// MISTAKE: lets a prefix query see every key, the continuation after the prefix included.
            visible = j <= i || i < prefix;
