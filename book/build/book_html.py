#!/usr/bin/env python3
"""book_html.py BUILD_DIR OUT PIECE.json... -- the whole book on one page (book.html)
from the book's html5 pieces (book/build/piece.sh), joined as assemble.py joins them
(ids that an earlier piece uses renamed), without one pandoc run over the whole book:

- each piece is written to HTML on its own (pandoc, no filter: the piece went through
  book/literate.lua already), numbered from the chapters before it, its citations
  resolved against every work the book cites (so that the backmatter's bibliography
  lists them all, and only it has one); each is kept in BUILD_DIR/pieces/html5-body/
  under the hash of what made it, so an edit rewrites one piece, with its images
  still named: they are inlined as the page is written, so a figure drawn again
  is in it though its piece is unchanged;
- the page around them is pandoc's too: a document of the pieces' level-1 headers
  alone, written with the template, the contents (--toc), the stamp
  (book/assemble.lua) and --self-contained; each piece's headers there are then
  replaced by the piece's HTML, and its images by data: URIs, as --self-contained
  writes them.

What comes out is what one pandoc run over every piece gives. Everything is written
under names of this process and renamed. Bad input: one line on stderr, exit 1."""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from assemble import BadPiece, document, join, write_atomically  # noqa: E402
import inline  # noqa: E402

PAGE = ['--template', 'book/template.html', '--css', 'book/style.css', '--mathml',
        '--highlight-style', 'pygments']
BODY = ['--mathml', '--highlight-style', 'pygments', '--citeproc',
        '--bibliography', 'book/references.bib']
MARK = '<!--book-piece %d-->'
with open(os.path.abspath(__file__), encoding='utf-8') as _f:
    SELF = hashlib.sha1(_f.read().encode('utf-8')).hexdigest()   # a body is kept for this script


def pandoc(args, text):
    run = subprocess.run(['pandoc', '--from', 'json'] + args, input=text.encode('utf-8'),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if run.returncode != 0:
        raise BadPiece('pandoc ' + ' '.join(args) + ': ' + run.stderr.decode('utf-8', 'replace').strip())
    sys.stderr.write(run.stderr.decode('utf-8', 'replace'))
    return run.stdout.decode('utf-8')


# What the page's pandoc run reads besides its input: the template and what
# --self-contained inlines (the stylesheet, book.js), the stamp filter and the
# stamp, and pandoc itself.
SHELL_FILES = ['book/template.html', 'book/style.css', 'book/book.js', 'book/assemble.lua',
               'book/filter/stamp.lua', 'book/filter/util.lua', 'book/filter/book.lua',
               'book/filter/deps.lua']


def shell_inputs():
    h = hashlib.sha1()
    # the stamp stamp.lua reads
    stamp = os.path.join(os.environ.get('LITERATE_BUILD') or 'build', 'stamp.txt')
    for f in SHELL_FILES + [stamp]:
        try:
            with open(f, 'rb') as fh:
                h.update(f.encode('utf-8') + b'\0' + fh.read() + b'\0')
        except FileNotFoundError:
            h.update(f.encode('utf-8') + b'\0-\0')
    exe = shutil.which('pandoc')
    st = os.stat(exe) if exe else None
    h.update(f'{exe} {st.st_size if st else 0} {st.st_mtime_ns if st else 0}'.encode('utf-8'))
    return h.hexdigest()


def numbered_chapters(blocks):
    """How many numbered level-1 headers the blocks hold."""
    return sum(1 for b in blocks if b['t'] == 'Header' and b['c'][0] == 1
               and 'unnumbered' not in b['c'][1][1])


def cites(parts):
    out, seen = [], set()
    for p in parts:
        for k in p.cites:
            if k not in seen:
                seen.add(k)
                out.append(k)
    return out


def inline_images(text):
    """src="FILE" of every <img> as a data: URI (what --self-contained does)."""
    try:
        return inline.inline_images(text)
    except inline.Missing as e:
        raise BadPiece(str(e))


def main(argv):
    if len(argv) < 4:
        sys.stderr.write('usage: book_html.py BUILD_DIR OUT PIECE.json...\n')
        return 2
    build, out, paths = argv[1], argv[2], argv[3:]
    cache = os.path.join(build, 'pieces', 'html5-body')
    os.makedirs(cache, exist_ok=True)
    try:
        api, meta, parts = join(paths)
        # Every piece resolves its citations against the works the whole book cites.
        keys = cites(parts)
        nocite = {'t': 'MetaInlines', 'c': [
            {'t': 'Cite', 'c': [[{'citationId': k, 'citationPrefix': [], 'citationSuffix': [],
                                 'citationMode': {'t': 'NormalCitation'}, 'citationNoteNum': 0,
                                 'citationHash': 0} for k in keys], [{'t': 'Str', 'c': '@'}]]}]}
        bodies, shell, offset, keep, cb = [], [], 0, set(), 0
        for i, piece in enumerate(parts):
            path, blocks = piece.path, piece.blocks
            m = dict(meta)
            m['nocite'] = nocite
            if not piece.refs:
                m['suppress-bibliography'] = {'t': 'MetaBool', 'c': True}
            # numbered from the chapters before it: as many empty level-1 headers
            # first, cut from the HTML (--number-offset would add <section>s)
            skip = [{'t': 'Header', 'c': [1, [f'book-piece-skip-{n}', [], []], []]}
                    for n in range(offset)]
            args = BODY + ['--number-sections']
            text = document(api, m, skip + blocks)
            key = hashlib.sha1((SELF + ' '.join(args) + '\0' + text).encode('utf-8')).hexdigest()[:16]
            name = os.path.basename(path)[:-len('.json')]
            cached = os.path.join(cache, f'{name}.{key}.html')
            keep.add(os.path.basename(cached))
            try:
                with open(cached, encoding='utf-8') as f:
                    body = f.read()
            except FileNotFoundError:   # (or removed by another make at once: made again)
                body = inline.tags_on_one_line(pandoc(['--to', 'html5'] + args, text))
                write_atomically(cached, body)
            # kept with the images' names, inlined afresh: a figure drawn again
            # under the same name (its piece unchanged) is in the page
            body = inline_images(body)
            body = re.sub(r'<h1 [^>]*id="book-piece-skip-\d+"[^>]*>.*?</h1>\n', '', body)
            # pandoc counts the code blocks of a document and names a highlighted
            # one without an id cbN: counted on from the pieces before
            if cb:
                body = re.sub(r'(id="|href="#)cb(\d+)', lambda x: f'{x.group(1)}cb{int(x.group(2)) + cb}', body)
            cb += piece.code_blocks
            bodies.append(body[:-1] if body.endswith('\n') else body)
            offset += numbered_chapters(blocks)
            heads = [b for b in blocks if b['t'] == 'Header' and b['c'][0] == 1]
            shell += [{'t': 'RawBlock', 'c': ['html', MARK % i]}] + heads
            if i == 0:   # a highlighted listing, so that the page gets the highlighting CSS
                shell.append({'t': 'CodeBlock', 'c': [['', ['c'], []], 'int x;']})
            shell.append({'t': 'RawBlock', 'c': ['html', MARK % i]})
        # The page around the bodies changes only with the chapters' titles, the
        # template and what --self-contained puts in: kept like a body, under the
        # hash of all that, so an edit inside a chapter does not write it again.
        args = (['--to', 'html5', '--standalone', '--self-contained', '--lua-filter',
                 'book/assemble.lua', '--toc', '--toc-depth', '1', '--number-sections',
                 '--metadata', 'whole-book=true', '--metadata', 'pagetitle=The whole book']
                + PAGE)
        text = document(api, meta, shell)
        key = hashlib.sha1((SELF + ' '.join(args) + '\0' + text + '\0' + shell_inputs())
                           .encode('utf-8')).hexdigest()[:16]
        cached = os.path.join(cache, f'page.{key}.html')
        keep.add(os.path.basename(cached))
        try:
            with open(cached, encoding='utf-8') as f:
                page = f.read()
        except FileNotFoundError:
            page = pandoc(args, text)
            write_atomically(cached, page)
        out_parts, at = [], 0   # the page cut at each piece's pair of marks, joined once
        for i, body in enumerate(bodies):
            a = page.find(MARK % i, at)
            b = page.find(MARK % i, a + 1) if a >= 0 else -1
            if a < 0 or b < 0:
                raise BadPiece(f'the page pandoc wrote has no place for piece {paths[i]}')
            out_parts += [page[at:a], body]
            at = b + len(MARK % i)
        page = ''.join(out_parts) + page[at:]
    except BadPiece as e:
        sys.stderr.write(f'book_html.py: {e}\n')
        return 1
    write_atomically(out, page)
    for f in os.listdir(cache):   # the bodies of earlier versions
        if f not in keep and '.tmp.' not in f:
            os.remove(os.path.join(cache, f))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
