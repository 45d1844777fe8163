#!/usr/bin/env python3
"""toc_seed.py BOOK.tex > book.toc -- a stand-in contents file for LaTeX's
first run of a clean build (book/build/pdf.sh).

Without a contents file the first run typesets an empty contents, so every
page after it moves on the second run and a third is needed. This writes the
entries the contents will hold (every chapter and section heading of the
LaTeX, numbered as LaTeX numbers them) with made-up page numbers, so the first
run already gives the contents its length. pdf.sh still reruns LaTeX until its
files stop changing: a wrong guess costs a run, never a wrong page.
"""
import re
import sys


def argument(text, start):
    """The brace-balanced argument whose '{' is at text[start], and its end."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    raise ValueError("unbalanced braces")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: toc_seed.py BOOK.tex")
    try:
        text = open(sys.argv[1], encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"toc_seed.py: {sys.argv[1]}: {e.strerror}")
    body = text[text.find("\\begin{document}"):]
    heading = re.compile(r"\\(chapter|section|addcontentsline)(\*?)\{")
    chapter = section = 0
    out = []
    try:
        for m in heading.finditer(body):
            kind, star = m.group(1), m.group(2)
            arg, end = argument(body, m.end() - 1)
            if kind == "addcontentsline":      # \addcontentsline{toc}{LEVEL}{TITLE}
                level, end = argument(body, end)
                title, _ = argument(body, end)
                if arg == "toc":
                    out.append(f"\\contentsline {{{level}}}{{{title}}}{{iv}}{{}}%")
            elif star:                         # unnumbered: listed by its
                continue                       # \addcontentsline, if at all
            elif kind == "chapter":
                chapter, section = chapter + 1, 0
                out.append(f"\\contentsline {{chapter}}{{\\numberline {{{chapter}}}{arg}}}"
                           f"{{100}}{{}}%")
            else:
                section += 1
                out.append(f"\\contentsline {{section}}{{\\numberline {{{chapter}.{section}}}"
                           f"{arg}}}{{100}}{{}}%")
    except ValueError as e:
        sys.exit(f"toc_seed.py: {sys.argv[1]}: {e}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
