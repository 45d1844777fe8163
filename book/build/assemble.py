#!/usr/bin/env python3
"""assemble.py OUT PIECE.json... -- one pandoc document (JSON) from the pieces of a
whole book (book/build/piece.sh: each source file through book/literate.lua on its
own), as pandoc would have read them in one run:

- the blocks one after the other; the metadata of the first piece, and a key only a
  later piece has from that piece;
- an identifier that an earlier piece already uses (pandoc makes header ids per
  file: "exercises" in every chapter) is renamed as pandoc renames one within a
  file, ID-1, ID-2, ..., and the piece's own links to "#ID" follow it.

Writes OUT.tmp.PID and renames it. Bad input: one line on stderr, exit 1."""
import json
import os
import sys

# Where an element keeps its Attr (the position in "c"), in pandoc's JSON.
ATTR_AT = {'Header': 1, 'CodeBlock': 0, 'Div': 0, 'Span': 0, 'Link': 0, 'Image': 0,
           'Code': 0, 'Table': 0}


def walk(node, visit):
    """Call visit(element) on every element (a dict with "t") below node, in order."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, list):
            stack.extend(reversed(n))
        elif isinstance(n, dict):
            if 't' in n:
                visit(n)
                c = n.get('c')
                if isinstance(c, (list, dict)):
                    stack.append(c)
            else:
                stack.extend(reversed(list(n.values())))


class Piece:
    """What one walk over a piece finds: its elements with an id, its links, the
    works it cites, its code blocks, whether it holds the bibliography (#refs)."""

    def __init__(self, path, blocks):
        self.path, self.blocks = path, blocks
        self.with_id, self.links, self.cites, self.code_blocks, self.refs = [], [], [], 0, False

        def visit(el):
            t = el['t']
            at = ATTR_AT.get(t)
            if at is not None and el['c'][at][0]:
                self.with_id.append(el)
            if t == 'Link':
                self.links.append(el)
            elif t == 'Cite':
                self.cites.extend(c['citationId'] for c in el['c'][0])
            elif t == 'CodeBlock':
                self.code_blocks += 1
            if t == 'Div' and el['c'][0][0] == 'refs':
                self.refs = True
        walk(blocks, visit)


class BadPiece(Exception):
    pass


def join(paths):
    """The pieces at paths, read and renamed: (api, meta, [Piece...])."""
    meta, parts, used, api = None, [], set(), None
    for path in paths:
        try:
            with open(path, encoding='utf-8') as f:
                doc = json.load(f)
            piece_blocks, piece_meta = doc['blocks'], doc['meta']
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise BadPiece(f'{path}: not a pandoc JSON piece ({e})')
        api = api or doc.get('pandoc-api-version')
        if meta is None:
            meta = dict(piece_meta)
        else:
            for k, v in piece_meta.items():
                meta.setdefault(k, v)
        piece = Piece(path, piece_blocks)
        mine = {el['c'][ATTR_AT[el['t']]][0] for el in piece.with_id}
        renamed = {}
        for el in piece.with_id:
            attr = el['c'][ATTR_AT[el['t']]]
            ident = attr[0]
            if ident in used:
                n = 1
                while f'{ident}-{n}' in used or f'{ident}-{n}' in mine:
                    n += 1
                renamed.setdefault(ident, f'{ident}-{n}')
                attr[0] = f'{ident}-{n}'
            used.add(attr[0])
        for el in piece.links if renamed else []:
            target = el['c'][2][0]
            if target.startswith('#') and target[1:] in renamed:
                el['c'][2][0] = '#' + renamed[target[1:]]
        parts.append(piece)
    return api, meta, parts


def write_atomically(out, text):
    tmp = f'{out}.tmp.{os.getpid()}'
    try:
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def document(api, meta, blocks):
    return json.dumps({'pandoc-api-version': api, 'meta': meta, 'blocks': blocks},
                      ensure_ascii=False, separators=(',', ':'))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write('usage: assemble.py OUT PIECE.json...\n')
        return 2
    try:
        api, meta, parts = join(argv[2:])
    except BadPiece as e:
        sys.stderr.write(f'assemble.py: {e}\n')
        return 1
    write_atomically(argv[1], document(api, meta, [b for p in parts for b in p.blocks]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
