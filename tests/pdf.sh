#!/usr/bin/env bash
# pdf.sh BUILD_DIR -- the PDF book, read back with poppler's tools: every chapter
# title and figure caption is in it, every font is embedded, no line of text
# runs off the text block, it has bookmarks and a plausible number of pages.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
PDF=$B/attention-in-c.pdf

for tool in pdftotext pdffonts pdfinfo pdftohtml python3 pandoc; do
  command -v $tool >/dev/null || { fail "$tool is installed" "run 'sudo make deps'"; exit 0; }
done
[ -s "$PDF" ] || { fail "the PDF exists" "$PDF is missing"; exit 0; }
chapters=(chapters/[0-9][0-9]-*.md)
[ -e "${chapters[0]}" ] || chapters=()

pdftotext "$PDF" "$T/book.txt" 2>"$T/err" || { fail "pdftotext reads the PDF" "$(cat "$T/err")"; exit 0; }
pdftotext -bbox-layout "$PDF" "$T/bbox.html" 2>/dev/null
pdftohtml -xml -i -q -stdout "$PDF" > "$T/book.xml" 2>/dev/null

# What the chapters say: the title (first "# " line) and, for every figure
# (an image whose source is figures/*.gp), the plain words of its caption. Pandoc
# parses the caption, so emphasis, quotes and dashes are handled as in the book;
# math, code, citations, values and notes are cut out (they print differently
# in the PDF), leaving runs of plain words.
cat > "$T/captions.lua" <<'EOF'
local opaque = { Math = 1, Code = 1, Cite = 1, Note = 1, RawInline = 1, Span = 1, Image = 1 }
local function runs(inlines)
  local out, cur = {}, {}
  for _, el in ipairs(inlines) do
    if opaque[el.t] then
      if #cur > 0 then out[#out + 1] = table.concat(cur) cur = {} end
    elseif el.t == 'Space' or el.t == 'SoftBreak' or el.t == 'LineBreak' then
      cur[#cur + 1] = ' '
    else
      cur[#cur + 1] = pandoc.utils.stringify(el)
    end
  end
  if #cur > 0 then out[#out + 1] = table.concat(cur) end
  return out
end
function Pandoc(doc)
  local lines = {}
  pandoc.walk_block(pandoc.Div(doc.blocks), { Image = function(img)
    if img.src:match('^figures/.*%.gp$') then
      lines[#lines + 1] = 'figure\t' .. img.src .. '\t' .. table.concat(runs(img.caption), '\t')
    end
  end })
  io.stdout:write(table.concat(lines, '\n'), '\n')
  os.exit(0)
end
EOF
: > "$T/expect.tsv"
for md in "${chapters[@]}"; do
  title=$(sed -n 's/^# //p' "$md" | head -n1 | sed 's/ *{.*}$//')
  printf 'chapter\t%s\t%s\n' "$md" "$title" >> "$T/expect.tsv"
  pandoc --from markdown --to plain --lua-filter "$T/captions.lua" "$md" 2>"$T/err" \
    | sed "s|^figure\t|figure\t$md:|" | grep . >> "$T/expect.tsv"
done

# ---- every font embedded (pdffonts: the "emb" column, fifth from the right)
pdffonts "$PDF" > "$T/fonts" 2>&1
nfonts=$(($(wc -l < "$T/fonts") - 2))
notemb=$(awk 'NR > 2 && $(NF-4) != "yes"' "$T/fonts")
if [ "$nfonts" -gt 0 ] && [ -z "$notemb" ]; then pass "PDF embeds every font ($nfonts)"
else fail "PDF embeds every font" "${notemb:-$(cat "$T/fonts")}"; fi
t3=$(awk 'NR > 2 && /Type 3/' "$T/fonts")
if [ -z "$t3" ]; then pass "PDF has no Type 3 (bitmap) fonts"
else fail "PDF has no Type 3 (bitmap) fonts" "$t3"; fi

pages=$(pdfinfo "$PDF" 2>/dev/null | sed -n 's/^Pages: *//p')
export T PAGES=${pages:-0} NCHAPTERS=${#chapters[@]} TAP_N
python3 - <<'EOF'
import os, re, sys, unicodedata, html

T = os.environ['T']
n = int(os.environ['TAP_N'])

def result(ok, what, why=()):
    global n
    n += 1
    print(('ok' if ok else 'not ok') + f' {n} - {what}')
    if not ok:
        why = list(why)
        for line in why[:15]:
            print('# ' + line)
        if len(why) > 15:
            print(f'# ... and {len(why) - 15} more')

# Text is compared as letters and digits only, lower case, after Unicode
# compatibility folding (ligatures, math italic letters): line breaks,
# hyphenation, quotes and dashes cannot make a match fail.
def squash(s):
    s = unicodedata.normalize('NFKC', s).lower()
    return ''.join(c for c in s if c.isalnum())

book = squash(open(f'{T}/book.txt', encoding='utf8', errors='replace').read())

chapters, figures = [], []
for line in open(f'{T}/expect.tsv', encoding='utf8'):
    parts = line.rstrip('\n').split('\t')
    if parts[0] == 'chapter':
        chapters.append((parts[1], parts[2]))
    elif parts[0] == 'figure':
        figures.append((parts[1], [p for p in parts[2:] if p.strip()]))

# ---- chapter titles: "Chapter N" then the title, as the book class prints it
for k, (md, title) in enumerate(chapters, 1):
    ok = squash(f'Chapter {k} {title}') in book
    result(ok, f'PDF has chapter {k} "{title}"',
           [f'"Chapter {k}" followed by "{title}" not found in the PDF text ({md})'])

# ---- figure captions: the longest plain run of the caption, first 8 words
missing = []
for where, runs in figures:
    if not runs:
        continue   # a caption that is all math or code: nothing plain to look for
    words = max(runs, key=lambda r: len(r.split())).split()[:8]
    if squash(' '.join(words)) not in book:
        missing.append(f'{where}: "{" ".join(words)}"')
result(not missing, f'PDF has every figure caption ({len(figures)})', missing)

# ---- page count: a title page, the contents, two pages a chapter at least
pages = int(os.environ['PAGES'])
least = 2 + 2 * int(os.environ['NCHAPTERS'])
result(pages >= least, f'PDF has {pages} pages (at least {least})',
       [f'pdfinfo says {pages} pages'])

# ---- bookmarks: pdftohtml -xml writes the outline as nested <outline><item>
xml = open(f'{T}/book.xml', encoding='utf8', errors='replace').read()
top, depth = [], 0
for m in re.finditer(r'<(/?)outline>|<item[^>]*>(.*?)</item>', xml, re.S):
    if m.group(0) == '<outline>':
        depth += 1
    elif m.group(0) == '</outline>':
        depth -= 1
    elif depth == 1:
        top.append(html.unescape(re.sub(r'<[^>]+>', '', m.group(2))))
tops = {squash(t) for t in top}
absent = [t for _, t in chapters if squash(t) not in tops]
result(bool(top) and not absent, f'PDF bookmarks list every chapter ({len(top)} top-level entries)',
       (['the PDF has no outline'] if not top else []) + [f'no bookmark "{t}"' for t in absent])

# ---- no heading ends a page. A numbered heading ("9.5.1" and a title, all in
# bold: pdftohtml marks bold runs <b>) as the bottom line of a page has its first
# words on the next page: preamble.tex moves a heading with too little room left
# to the next page itself.
text_re = re.compile(r'<text top="(\d+)" left="(\d+)"[^>]*>(.*?)</text>', re.S)
page_xml = re.findall(r'<page number="(\d+)"[^>]*>(.*?)</page>', xml, re.S)
stranded, headings = [], 0
for number, page in page_xml:
    rows = {}
    for top, left, t in text_re.findall(page):
        row = next((r for r in rows if abs(r - int(top)) <= 3), int(top))
        rows.setdefault(row, []).append((int(left), t.strip()))
    def heading(row):
        parts = sorted(rows[row])
        text = html.unescape(''.join(re.sub(r'<[^>]+>', '', t) for _, t in parts)).strip()
        bold = all(t.startswith('<b>') for _, t in parts)
        return bold and re.match(r'\d+(\.\d+)+\s*[A-Za-z]', text) is not None, text
    headings += sum(heading(r)[0] for r in rows)
    if rows and heading(max(rows))[0]:
        stranded.append(f'page {number} ends with the heading "{heading(max(rows))[1][:60]}"')
result(headings > 0 and not stranded,
       f'no page ends with a section heading ({headings} headings found)', stranded)

# ---- nothing runs off the text block.
# Why this method: "Overfull \hbox" warnings in the log would only say what LaTeX
# thinks of boxes, and they also fire for invisible fractions of a point and say
# little about where. (Code listings and program output do not wrap: the preamble
# relies on their lines being short enough, and this is the check that they are.) Instead, measure what a
# reader sees: pdftotext -bbox-layout gives the box of every word on every page.
# The text block's edges are found from the text itself: its left edge is the
# most common left end of a line (every paragraph, listing and caption line
# starts there), and its right edge mirrors it (the Makefile's geometry:margin
# sets equal left and right margins on every page: oneside). A word that reaches
# more than 3 pt past either edge sticks out into the margin -- a code line
# that did not wrap, an unbreakable inline `identifier`, a wide table or
# equation. Figures are drawn to the text width, so their labels stay inside.
from collections import Counter
bb = open(f'{T}/bbox.html', encoding='utf8', errors='replace').read()
page_re = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
line_re = re.compile(r'<line xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</line>', re.S)
word_re = re.compile(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">(.*?)</word>', re.S)
lines = []
for p, pm in enumerate(page_re.finditer(bb), 1):
    for lm in line_re.finditer(pm.group(3)):
        words = [(float(a), float(b), html.unescape(w)) for a, b, w in word_re.findall(lm.group(4))]
        if words:
            lines.append((p, float(lm.group(2)), words))
lefts = Counter(round(min(w[0] for w in ws)) for _, _, ws in lines)
left = 0
if lefts:
    mode = lefts.most_common(1)[0][0]
    xs = sorted(min(w[0] for w in ws) for _, _, ws in lines if round(min(w[0] for w in ws)) == mode)
    left = xs[len(xs) // 2]
pagew = [float(pm.group(1)) for pm in page_re.finditer(bb)]
right = Counter(pagew).most_common(1)[0][0] - left if pagew else 0
TOL = 3.0   # poppler's word boxes are estimates; a glyph may overhang ~2 pt
if not (left > 20 and right > left + 200):
    result(False, 'no text runs off the text block',
           [f'could not find the text block: left edge {left} pt, right edge {right} pt'])
else:
    out = []
    for p, y, ws in lines:
        far = max(max(w[1] for w in ws) - right, left - min(w[0] for w in ws))
        if far > TOL:
            text = ' '.join(w[2] for w in ws)
            out.append(f'page {p}, {far:.1f} pt into the margin: {text[:90]}')
    result(not out, f'no text runs off the text block ({left:.1f}..{right:.1f} pt, {len(lines)} lines)', out)
EOF

# ---- page labels: the page where chapter 1 starts is labelled "1" (arabic),
# the pages before it roman. The labels live in the catalog, which xdvipdfmx
# may put in a compressed object stream: read every stream.
pdftotext "$PDF" - 2>/dev/null | python3 -c '
import re, sys, zlib
pages = sys.stdin.read().split("\f")
first = next((i for i, p in enumerate(pages) if p.strip().startswith("Chapter 1")), None)
d = open(sys.argv[1], "rb").read()
texts = [d]
for m in re.finditer(rb"stream\r?\n(.*?)endstream", d, re.S):
    try:
        texts.append(zlib.decompress(m.group(1)))
    except Exception:
        pass
labels = None
for t in texts:
    m = re.search(rb"/PageLabels\s*<<\s*/Nums\s*\[(.*?)\]\s*>>", t, re.S)
    if m:
        labels = [(int(i), s.decode()) for i, s in re.findall(rb"(\d+)\s*<<[^>]*/S\s*/(\w)", m.group(1))]

arabic = [i for i, s in (labels or []) if s == "D"]
ok = first is not None and labels is not None and arabic[:1] == [first]
print(("ok" if ok else "not ok") + " - PDF page labels: arabic page 1 is where chapter 1 starts")
if not ok:
    print(f"# chapter 1 starts at page index {first}; /PageLabels: {labels}")
' "$PDF" "$TAP_N"

# ---- contents: every section number stands apart from its title (a number
# box too narrow for "4.10" makes the two touch or overlap).
pdftotext -bbox-layout "$PDF" - 2>/dev/null | python3 -c '
import re, sys, html
bb = sys.stdin.read()
pages = re.findall(r"<page [^>]*>(.*?)</page>", bb, re.S)
bad, seen = [], 0
for p, page in enumerate(pages, 1):
    words_all = re.findall(r"<word xMin=\"([\d.]+)\" yMin=\"[\d.]+\" xMax=\"([\d.]+)\" yMax=\"[\d.]+\">(.*?)</word>", page)
    if not any(w[2] == "Contents" for w in words_all[:3]) and not (seen and p <= seen + 2):
        continue
    if any(w[2] == "Chapter" for w in words_all[:2]):
        break
    seen = seen or p
    # a line is the words on one baseline, left to right (pdftotext may cut a
    # number that stands far from its title into a line of its own)
    rows = {}
    for a, b, y, t in re.findall(r"<word xMin=\"([\d.]+)\" yMin=\"[\d.]+\" xMax=\"([\d.]+)\" yMax=\"([\d.]+)\">(.*?)</word>", page):
        rows.setdefault(round(float(y)), []).append((float(a), float(b), html.unescape(t)))
    for y in sorted(rows):
        ws = sorted(rows[y])
        if not ws or not ws[0][2][:1].isdigit() or re.fullmatch(r"\d+", ws[0][2]) and len(ws) == 1:
            continue   # not a numbered entry, or a page number on its own
        if not re.fullmatch(r"\d+(\.\d+)*", ws[0][2]) or len(ws) < 2:
            bad.append(f"page {p}: number runs into the title: {ws[0][2]}")
        elif ws[1][0] - ws[0][1] < 3.0:
            bad.append(f"page {p}: {ws[0][2]} is {ws[1][0] - ws[0][1]:.1f} pt from \"{ws[1][2]}\"")
print(("ok" if seen and not bad else "not ok") + " - PDF contents: section numbers stand apart from their titles")
for b in (bad if seen else ["no contents page found"])[:10]:
    print("# " + b)
'
