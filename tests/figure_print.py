"""figure_print.py BUILD_DIR [NAME...] -- every text of a figure's PDF prints at
6 pt or more in the PDF book, and no two of its words overlap.

The size is read from the PDF's content streams: a text's size is its font size
(Tf) times the scale of its text matrix (Tm) and of the graphics state (cm),
times the factor LaTeX scales the figure by when it is wider than the text
(book/build/pdf.sh: A4 with 2.4 cm margins; pandoc never scales a figure up).
Words are pdftotext's (-bbox): two words whose boxes (less SLACK of their
height at top and bottom) overlap are two labels on top of each other. One line per
fault; exit 1 if any."""
import glob
import math
import os
import re
import subprocess
import sys
import zlib

MIN_PT = 6.0
MIN_OVERLAP = 0.5
SLACK = 0.125


def text_width_pt():
    """The PDF book's text width, from pdf.sh's paper size and margin."""
    here = os.path.dirname(os.path.abspath(__file__))
    pdf_sh = os.path.join(here, "..", "book", "build", "pdf.sh")
    s = open(pdf_sh, encoding="utf-8").read()
    paper = re.search(r"papersize=(\w+)", s).group(1)
    margin = re.search(r"geometry:margin=([\d.]+)cm", s)
    widths = {"a4": 595.276, "letter": 612.0}
    if paper not in widths or not margin:
        sys.exit("figure_print.py: cannot read the text width from "
                 f"book/build/pdf.sh ({paper})")
    return widths[paper] - 2 * float(margin.group(1)) / 2.54 * 72


def mul(a, b):
    """Product of two PDF matrices [a b c d e f] (a applied first)."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


NUM = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
OPS = re.compile(rb"(" + NUM + rb"(?:\s+" + NUM + rb"){5})\s+(cm|Tm)\b|(/\S+)\s+(" + NUM
                 + rb")\s+Tf\b|(?<![\w/])([qQ])(?![\w])"
                 + rb"|\((?:[^()\\]|\\.)*\)\s*Tj|\[[^\]]*\]\s*TJ|<[0-9a-fA-F]*>\s*Tj")


def text_sizes(path):
    """The size in pt of every text shown, in the figure's own units."""
    data = open(path, "rb").read()
    sizes = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            s = zlib.decompress(m.group(1))
        except zlib.error:
            continue
        ctm, stack, tm, tf = [1, 0, 0, 1, 0, 0], [], [1, 0, 0, 1, 0, 0], 0.0
        for op in OPS.finditer(s):
            nums, kind, font, size, qq = op.group(1, 2, 3, 4, 5)
            if kind == b"cm":
                ctm = mul([float(x) for x in nums.split()], ctm)
            elif kind == b"Tm":
                tm = [float(x) for x in nums.split()]
            elif font:
                tf = float(size)
            elif qq == b"q":
                stack.append(ctm)
            elif qq == b"Q":
                ctm = stack.pop() if stack else [1, 0, 0, 1, 0, 0]
            else:   # a text shown
                t = mul(tm, ctm)
                sizes.append(abs(tf) * math.sqrt(abs(t[0] * t[3] - t[1] * t[2])))
    return sizes


def page_size(path):
    """The page's width and height in pt (pdfinfo: xdvipdfmx, which draws the
    diagrams, keeps its MediaBox in a compressed object stream)."""
    r = subprocess.run(["pdfinfo", path], capture_output=True, text=True)
    m = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", r.stdout, re.M)
    if not m:
        sys.exit(f"figure_print.py: pdfinfo reads no page size in {path}")
    return float(m.group(1)), float(m.group(2))


WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                  r'yMax="([\d.]+)">(.*?)</word>')


def words(path):
    r = subprocess.run(["pdftotext", "-bbox", path, "-"], capture_output=True,
                       text=True)
    return [(float(a), float(b), float(c), float(d), w)
            for a, b, c, d, w in WORD.findall(r.stdout)]


def overlaps(ws):
    """Pairs of words whose boxes overlap, each box less SLACK of its height at
    top and bottom (a word's box holds the font's whole ascent and descent: two
    lines set one under the other touch without any ink in common)."""
    def inner(w):
        h = (w[3] - w[1]) * SLACK
        return (w[0], w[1] + h, w[2], w[3] - h, w[4])
    ws = [inner(w) for w in ws]
    out = []
    for i, a in enumerate(ws):
        for b in ws[i + 1:]:
            dx = min(a[2], b[2]) - max(a[0], b[0])
            dy = min(a[3], b[3]) - max(a[1], b[1])
            if dx > MIN_OVERLAP and dy > 0:
                out.append((a[4], b[4]))
    return out


def main():
    build, names = sys.argv[1], sys.argv[2:]
    names = names or sorted(os.path.basename(p)[:-3]
                            for p in glob.glob("figures/ch*.gp"))
    width = text_width_pt()
    bad = 0
    for name in names:
        pdf = f"{build}/figures/{name}.pdf"
        if not os.path.exists(pdf):
            print(f"{name}: not drawn ({pdf})")
            bad += 1
            continue
        scale = min(1.0, width / page_size(pdf)[0])
        sizes = text_sizes(pdf)
        if not sizes:
            print(f"{name}: no text found in {pdf}")
            bad += 1
        elif min(sizes) * scale < MIN_PT - 1e-6:
            small = sum(s * scale < MIN_PT - 1e-6 for s in sizes)
            print(f"{name}: {small} of {len(sizes)} texts print under {MIN_PT:g} pt "
                  f"(the smallest {min(sizes) * scale:.2f} pt)")
            bad += 1
        for a, b in overlaps(words(pdf))[:5]:
            print(f"{name}: in the PDF, '{a}' and '{b}' overlap")
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
