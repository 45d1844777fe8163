#!/usr/bin/env python3
"""leak.py -- no graded function's body in anything a reader or a student gets.

  leak.py BUILD_DIR              every reader-facing output of the build
  leak.py --files FILE...        only these files (pages, archives, PDFs, sources)
  leak.py --bodies               each graded body's token count (and what is checked)
  leak.py --body FUNCTION        the lines of FUNCTION's solution region (to plant)

For every task line of tests/assignments/chNN.tsv, the body of the function's
solution region (between // BEGIN SOLUTION and // END SOLUTION in its source) is
cut into C tokens, comments and whitespace dropped. It leaks when a run of at least
RUN tokens of it, contiguous and in order, appears in an output:
RUN = max(80% of the body's tokens, MIN_RUN tokens), or the whole body when it is
shorter than MIN_RUN. A body of fewer than MIN_TOKENS tokens is too common to look
for (any `return 0;`) and is named as unchecked.

The outputs: the HTML pages and book.html (text of the page, tags dropped, entities
decoded), every other file under BUILD/html (the search index), the EPUB's XHTML,
the PDF's text (pdftotext), each program tarball under BUILD/html/download and each
student pack BUILD/assignments/chNN.tar.gz (every .c and .h inside). Outputs are
compared as text with comments and all whitespace removed, so a listing that the
PDF wraps in the middle of a token (fvextra's breakanywhere), or a word the PDF
hyphenates at a line end, still matches.

One line per leak, "leak: FUNCTION (chNN, R of N tokens) in FILE[:MEMBER]", then
exit 1; exit 0 when nothing leaks.
"""
import html
import importlib.util
import io
import math
import os
import re
import subprocess
import sys
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN_FRACTION = 0.8
MIN_RUN = 20      # a run this long is never common code by chance
MIN_TOKENS = 8    # shorter bodies are not looked for (named as unchecked)

spec = importlib.util.spec_from_file_location("pack", os.path.join(ROOT, "tests/grader/pack.py"))
pack = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pack)

TOKEN = re.compile(r"""
    "(?:\\.|[^"\\\n])*"            # string literal
  | '(?:\\.|[^'\\\n])*'            # character literal
  | \.?\d(?:[eEpP][+-]|[\w.])*     # pp-number
  | [A-Za-z_]\w*                   # identifier
  | <<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\#\#
  | \S                             # any other punctuator
""", re.X)
# A block comment: at most 2000 characters, and not the "/*" of a path in prose
# (code/lib/*/*.c), which would otherwise run to the next "*/" in the book.
COMMENTS = re.compile(r"//[^\n]*|(?<![\w/*.])/\*(?:(?!/\*).){0,2000}?\*/", re.S)
# Typography a PDF or a page may put in a listing, back to ASCII.
TYPO = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                      "\u2212": "-", "\u2013": "-", "\u2217": "*", "\u00a0": " ",
                      "\ufb01": "fi", "\ufb02": "fl", "\u2010": "-"})


def tokens(c_text):
    return TOKEN.findall(COMMENTS.sub(" ", c_text))


def squeeze(text):
    """Comments and every whitespace character dropped: the form outputs are
    searched in (a token stream without its boundaries)."""
    return re.sub(r"\s+", "", COMMENTS.sub(" ", text))


# ---------------------------------------------------------------------------
# What is looked for

def graded_bodies():
    """[(chapter, function, source, [tokens])], one per solution region."""
    out = []
    for nn, man in pack.manifests().items():
        for t in man["tasks"]:
            lines = pack.read(t["src"]).split("\n")
            regs, errors = pack.regions(t["src"], lines)
            if errors:
                pack.die("; ".join(errors))
            found = False
            for b, e in regs:
                if pack.enclosing_function(lines, b)[0] == t["fn"]:
                    out.append((f"ch{nn}", t["fn"], t["src"],
                                tokens("\n".join(lines[b + 1:e]))))
                    found = True
            if not found:
                pack.die(f"{t['src']}: no solution region in {t['fn']}")
    return out


def run_length(n):
    if n < MIN_TOKENS:
        return None
    return n if n < MIN_RUN else max(MIN_RUN, math.ceil(RUN_FRACTION * n))


# ---------------------------------------------------------------------------
# Where it is looked for: (label, squeezed text)

def page_text(raw):
    """A page's text: scripts and styles kept (an index may hold code), tags
    dropped, entities decoded, JSON string escapes undone."""
    text = re.sub(r"<[^>]*>", "", raw)
    text = html.unescape(text)
    text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
    text = text.replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
    return text.translate(TYPO)


def pdf_texts(path):
    """The PDF's text (pdftotext), as printed_texts reads it."""
    try:
        raw = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], check=True,
                             capture_output=True).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.CalledProcessError) as e:
        pack.die(f"pdftotext {path}: {e}")
    return printed_texts(raw)


def printed_texts(raw):
    """A printed text twice: as it is, and with a hyphen at a line's end joined to
    the next line (a hyphenated word); non-ASCII dropped (the mark fvextra draws
    where it breaks a line)."""
    raw = re.sub(r"[^\x00-\x7f]", "", raw.translate(TYPO))
    return [("", raw), (" (hyphens joined)", re.sub(r"-\n", "", raw))]


def archive_members(path):
    """[(member, text)] of the .c and .h files in a .tar.gz, .zip or .epub."""
    out = []
    if path.endswith((".zip", ".epub")):
        with zipfile.ZipFile(path) as z:
            for n in sorted(z.namelist()):
                out.append((n, z.read(n).decode("utf-8", "replace")))
    else:
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if m.isfile():
                    out.append((m.name, t.extractfile(m).read().decode("utf-8", "replace")))
    return out


def targets_of(path):
    """[(label, squeezed text)] of one output file."""
    rel = os.path.relpath(path)
    if rel.startswith(".."):
        rel = path
    if path.endswith(".pdf"):
        return [(rel + tag, squeeze(t)) for tag, t in pdf_texts(path)]
    if path.endswith((".tar.gz", ".tgz", ".zip", ".epub")):
        out = []
        for member, text in archive_members(path):
            if member.endswith((".c", ".h")):
                out.append((f"{rel}:{member}", squeeze(text)))
            elif member.endswith((".html", ".xhtml", ".htm", ".js", ".ncx", ".opf", ".md",
                                  ".txt")):
                out.append((f"{rel}:{member}", squeeze(page_text(text))))
        return out
    with open(path, encoding="utf-8", errors="replace") as f:
        raw = f.read()
    if path.endswith(".txt"):   # a PDF's text, say
        return [(rel + tag, squeeze(t)) for tag, t in printed_texts(raw)]
    if path.endswith((".c", ".h")):
        return [(rel, squeeze(raw))]
    return [(rel, squeeze(page_text(raw)))]


def build_outputs(b):
    """Every reader-facing output of build directory b."""
    files = []
    for d, _, names in os.walk(os.path.join(b, "html")):
        for n in names:
            if n.endswith((".html", ".js", ".json", ".tar.gz")):
                files.append(os.path.join(d, n))
    for n in ("attention-in-c.epub", "attention-in-c.pdf"):
        files.append(os.path.join(b, n))
    a = os.path.join(b, "assignments")
    if os.path.isdir(a):
        files += [os.path.join(a, n) for n in os.listdir(a) if n.endswith(".tar.gz")]
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        pack.die("missing build outputs (build them first): " + " ".join(missing))
    return sorted(files)


# ---------------------------------------------------------------------------
# The search

def longest_run(toks, text, at_least):
    """The longest run of toks (at least at_least long) found in text, else 0."""
    best = 0
    for i in range(len(toks) - at_least + 1):
        if best >= len(toks) - i:
            break
        n = max(at_least, best + 1)
        if "".join(toks[i:i + n]) not in text:
            continue
        while i + n < len(toks) and "".join(toks[i:i + n + 1]) in text:
            n += 1
        best = n
    return best


def find_leaks(bodies, targets):
    """[(chapter, fn, run, n, label)]. Identical texts are searched once."""
    by_text = {}
    for label, text in targets:
        by_text.setdefault(text, []).append(label)
    leaks = []
    for ch, fn, src, toks in bodies:
        need = run_length(len(toks))
        if need is None:
            continue
        for text, labels in by_text.items():
            run = longest_run(toks, text, need)
            if run:
                leaks += [(ch, fn, run, len(toks), label) for label in labels]
    return leaks


def print_body(src, fn):
    lines = pack.read(src).split("\n")
    for b, e in pack.regions(src, lines)[0]:
        if pack.enclosing_function(lines, b)[0] == fn:
            print("\n".join(lines[b + 1:e]))
    return 0


def self_check(bodies):
    """The search finds every body in its own source: the normalisation is sound."""
    for ch, fn, src, toks in bodies:
        need = run_length(len(toks))
        if need and longest_run(toks, squeeze(pack.read(src)), need) != len(toks):
            pack.die(f"leak.py: the body of {fn} is not found in its own {src}")


def main(argv):
    bodies = graded_bodies()
    if argv[:1] == ["--body"] and len(argv) == 2:   # a body's lines, for a test to plant
        for ch, fn, src, toks in bodies:
            if fn == argv[1]:
                return print_body(src, fn)
        return 2
    if argv[:1] == ["--bodies"]:
        for ch, fn, src, toks in bodies:
            need = run_length(len(toks))
            print(f"{ch}\t{fn}\t{len(toks)} tokens\t"
                  + (f"leaks at a run of {need}" if need else "unchecked: too short"))
        return 0
    if argv[:1] == ["--files"]:
        files = argv[1:]
    elif len(argv) == 1:
        files = build_outputs(argv[0])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    self_check(bodies)
    targets = [t for f in files for t in targets_of(f)]
    best = {}   # (fn, file): the longest run, whichever text of the file has it
    for ch, fn, run, n, label in find_leaks(bodies, targets):
        key = (ch, fn, n, label.replace(" (hyphens joined)", ""))
        best[key] = max(best.get(key, 0), run)
    leaks = sorted(best.items())
    for (ch, fn, n, label), run in leaks:
        print(f"leak: {fn} ({ch}, {run} of {n} tokens) in {label}")
    short = [fn for ch, fn, src, toks in bodies if run_length(len(toks)) is None]
    if short:
        print(f"unchecked (under {MIN_TOKENS} tokens): {' '.join(short)}", file=sys.stderr)
    print(f"leak.py: {len(bodies)} graded bodies, {len(targets)} texts in {len(files)} "
          f"files, {len(leaks)} leaks", file=sys.stderr)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
