"""figure_labels.py BUILD_DIR [NAME...] -- every label a figure script writes is
drawn, in the SVG (HTML, EPUB) and in the PDF (the PDF book).

gnuplot silently drops a title or axis label whose place falls off the canvas,
and the two terminals place text differently, so a label can be in one output
and not the other. For every literal string a script gives `set title`,
`set xlabel`, `set ylabel`, `set cblabel` or `set label` (strings built by
sprintf are not checked), each of its lines must appear in the SVG's text
(the whole of one <text> element, enhanced-text markup removed, inside the
canvas: gnuplot writes text whose place is just off it, and the viewer cuts it) and in the PDF's text
(pdftotext), as many times as the script sets it (a title and a y label may
say the same word). And every word of the PDF is somewhere in the SVG's text
(a title built by sprintf that the SVG dropped). One line per missing label;
exit 1 if any."""
import glob
import html
import os
import re
import subprocess
import sys

LABEL = re.compile(r"(?:^|[{;])\s*set\s+(?:title|[xy]2?label|cblabel|label(?:\s+\d+)?)\s+"
                   r"(?:'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\")")


def norm(s):
    """Text as the reader sees it: no enhanced-text markup (a font or size
    change, {/*1.25 j}, included), no white space."""
    s = re.sub(r"\{/[^\s{}]*\s", "{", s)
    s = re.sub(r"\\(.)", r"\1", s)
    return re.sub(r"[\s{}^_@&~]", "", s)


def labels(script):
    out = []
    for line in open(script, encoding="utf-8"):
        for m in LABEL.finditer(line):   # also inside { ... } and after ';'
            text = m.group(1) if m.group(1) is not None else m.group(2)
            out += [t for t in re.split(r"\\n", text) if norm(t)]
    return out


TEXT = re.compile(r'<g transform="translate\(([-\d.]+),([-\d.]+)\)( rotate\(-?\d+\))?"'
                  r'[^>]*?font-size="([\d.]+)"[^>]*>\s*<text\b[^>]*>(.*?)</text>', re.S)


def svg_texts(path):
    """(text, whether it lies on the canvas) for every text element: its
    baseline and ascent (descent) inside the viewBox."""
    s = open(path, encoding="utf-8").read()
    w, h = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', s).groups())
    out = []
    for x, y, rot, f, t in TEXT.findall(s):
        x, y, f = float(x), float(y), float(f)
        if rot:   # a vertical label: its baseline runs along x
            inside = 0 <= x - 0.8 * f and x + 0.25 * f <= w and 0 <= y <= h
        else:
            inside = 0 <= y - 0.8 * f and y + 0.25 * f <= h and 0 <= x <= w
        out.append((norm(html.unescape(re.sub(r"<[^>]+>", "", t))), inside))
    return out


def svg_all_text(path):
    """Every text of the SVG, as the reader sees it, run together."""
    s = open(path, encoding="utf-8").read()
    return "".join(norm(html.unescape(re.sub(r"<[^>]+>", "", t)))
                   for t in re.findall(r"<text\b[^>]*>(.*?)</text>", s, re.S))


def pdf_words(path):
    r = subprocess.run(["pdftotext", "-raw", path, "-"], capture_output=True, text=True)
    return [w for w in dict.fromkeys(r.stdout.split()) if norm(w)]


def pdf_text(path):
    r = subprocess.run(["pdftotext", "-raw", path, "-"], capture_output=True, text=True)
    return norm(r.stdout)


def main():
    build, names = sys.argv[1], sys.argv[2:]
    scripts = [f"figures/{n}.gp" for n in names] or sorted(glob.glob("figures/ch*.gp"))
    bad = 0
    for script in scripts:
        name = os.path.basename(script)[:-3]
        svg, pdf = f"{build}/figures/{name}.svg", f"{build}/figures/{name}.pdf"
        if not (os.path.exists(svg) and os.path.exists(pdf)):
            print(f"{name}: not drawn ({svg}, {pdf})")
            bad += 1
            continue
        texts, ptext = svg_texts(svg), pdf_text(pdf)
        wanted = labels(script)
        for label in dict.fromkeys(wanted):
            n = norm(label)
            k = sum(norm(x) == n for x in wanted)   # a text set twice is drawn twice
            where = [w for w, ok in (("SVG", texts.count((n, True)) >= k),
                                     ("PDF", ptext.count(n) >= k)) if not ok]
            if where:
                off = " (it falls off the SVG's canvas)" if (n, False) in texts else ""
                print(f"{name}: '{label}' is missing from the {' and the '.join(where)}{off}")
                bad += 1
        # every word the PDF prints is in the SVG too (a title built by sprintf,
        # a key, a tick label: whatever the script writes)
        every = svg_all_text(svg)
        missing = [w for w in pdf_words(pdf) if norm(w) not in every]
        if missing:
            print(f"{name}: the PDF's words {' '.join(missing[:8])} are missing from the SVG")
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
