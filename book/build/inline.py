#!/usr/bin/env python3
"""inline.py IN OUT -- a page pandoc wrote (standalone, not self-contained) made
self-contained: each <img src="FILE"> as a data: URI, the stylesheet
<link rel="stylesheet" href="FILE"> as a <style> element holding the file, and
<script src="FILE"></script> as a <script> element holding it. Only files are
inlined; a src that is already a URL (data:, http:) stays.

Why not pandoc --self-contained: pandoc 2.17 reads its own whole output again to
do it; for the largest chapter page (1.6 MB with its figures) that second pass cost
0.3-0.5 CPU-s of 1.6-1.9, against 0.2 s here. What it writes is the same (every tag
on one line, as pandoc writes it again) up to the stylesheet, which pandoc also
shortens (comments and indentation out); here the file goes in as it is.

Writes OUT.tmp.PID and renames it. Bad input (no such file, an image of another
kind, a stylesheet or script that holds its own end tag): one line on stderr, exit 1."""
import base64
import html
import os
import re
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from assemble import write_atomically  # noqa: E402

KINDS = {'.svg': 'image/svg+xml', '.png': 'image/png'}


class Missing(Exception):
    pass


def local(src):
    """The file a src names (as written, or URL-decoded), or None if it is a URL."""
    src = html.unescape(src)
    if re.match(r'^[a-z][a-z0-9+.-]*:', src, re.I):
        return None
    if not os.path.isfile(src):
        src = urllib.parse.unquote(src)
    if not os.path.isfile(src):
        raise Missing(f'{src}: no such file')
    return src


def tags_on_one_line(text):
    """Pandoc breaks long lines between a tag's attributes; --self-contained writes
    every tag again with one space between them: the same here."""
    def one(m):
        return ''.join(' ' if t.isspace() else t
                       for t in re.findall(r'"[^"]*"|\'[^\']*\'|\s+|[^\s"\']+', m.group(0)))
    return re.sub(r'<[a-zA-Z][^<>]*>', one, text)


def inline_images(text):
    """src="FILE" of every <img> as a data: URI (what --self-contained does)."""
    def data(m):
        src = local(m.group(2))
        if src is None:
            return m.group(0)
        kind = KINDS.get(os.path.splitext(src)[1])
        if kind is None:
            raise Missing(f'{src}: an image of a kind inline.py does not inline')
        with open(src, 'rb') as f:
            b64 = base64.b64encode(f.read()).decode('ascii')
        return f'{m.group(1)}data:{kind};base64,{b64}"'
    return re.sub(r'(<img [^>]*?src=")([^"]*)"', data, text)


def inline_styles_and_scripts(text):
    """<link rel="stylesheet" href=FILE> and <script src=FILE></script>, inlined."""
    def holding(tag):
        def element(m):
            src = local(m.group(1))
            if src is None:
                return m.group(0)
            with open(src, encoding='utf-8') as f:
                body = f.read()
            if f'</{tag}' in body.lower():
                raise Missing(f'{src}: holds "</{tag}", which would end the element early')
            return f'<{tag}>\n{body}</{tag}>'
        return element
    text = re.sub(r'<link rel="stylesheet" href="([^"]*)" ?/?>', holding('style'), text)
    return re.sub(r'<script src="([^"]*)"></script>', holding('script'), text)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write('usage: inline.py IN OUT\n')
        return 2
    try:
        with open(argv[1], encoding='utf-8') as f:
            text = f.read()
        text = inline_images(inline_styles_and_scripts(tags_on_one_line(text)))
    except (OSError, UnicodeDecodeError, Missing) as e:
        sys.stderr.write(f'inline.py: {argv[1]}: {e}\n')
        return 1
    try:
        write_atomically(argv[2], text)
    except OSError as e:
        sys.stderr.write(f'inline.py: {argv[2]}: {e}\n')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
