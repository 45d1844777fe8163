// MISTAKE: makes the prefix and the continuation two separate blocks: a later token never sees the prompt.
            visible = (i < prefix && j < prefix) || (i >= prefix && j >= prefix && j <= i);
