#!/usr/bin/env bash
# book.sh BUILD_DIR -- the book was built completely and says what it should.
set -u
B=$1
. tests/tap.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

if make --no-print-directory -q B="$B" all; then pass "a second make has nothing to do"
else fail "a second make has nothing to do" "$(make --no-print-directory -n B="$B" all | head)"; fi

[ -s "$B/html/index.html" ] && pass "index.html exists" || fail "index.html exists"
[ -s "$B/attention-in-c.pdf" ] && pass "the PDF exists" || fail "the PDF exists"
pdftotext -layout "$B/attention-in-c.pdf" "$T/book.txt" 2>/dev/null
pdftotext "$B/attention-in-c.pdf" "$T/book-flow.txt" 2>/dev/null
tr -s ' \n' '  ' < "$T/book-flow.txt" > "$T/book-words.txt"

for md in chapters/[0-9][0-9]-*.md; do
  name=$(basename "$md" .md)
  page="$B/html/$name.html"
  title=$(sed -n 's/^# //p' "$md" | head -n1 | sed 's/ *{.*}$//')
  if [ -s "$page" ] && grep -qF "$title" "$page"; then pass "$name.html has its title '$title'"
  else fail "$name.html has its title '$title'"; fi
  if grep -qF "href=\"$name.html\"" "$B/html/index.html"; then pass "index links to $name.html"
  else fail "index links to $name.html"; fi
  if grep -qF "$title" "$T/book-words.txt"; then pass "PDF contains chapter '$title'"
  else fail "PDF contains chapter '$title'"; fi
  # No directive left unresolved in the page.
  if grep -qE 'data-snippet=|data-section=|\{\.val|\.gp"' "$page"; then
    fail "$name.html has no unresolved directive" "$(grep -oE 'data-snippet=[^ ]*|data-section=[^ ]*|\{\.val[^ ]*|[^ ]*\.gp"' "$page" | head -3)"
  else pass "$name.html has no unresolved directive"; fi
  if grep -q '<figure>' "$page" && ! grep -q '<img src="data:image/svg+xml' "$page"; then
    fail "$name.html embeds its figures as SVG"
  else pass "$name.html embeds its figures as SVG"; fi
  if grep -q 'id="refs"' "$page" || ! grep -q '\[@' "$md"; then pass "$name.html has its references"
  else fail "$name.html has its references"; fi
  if grep -qi '^## Exercises' "$md"; then pass "$name has exercises"; else fail "$name has exercises"; fi
done

out=$(book/check-snippets.sh "$B")
if [ -z "$out" ]; then pass "every snippet marker is shown exactly once"
else fail "every snippet marker is shown exactly once" "$out"; fi

out=$(book/check-dead.sh "$B")
if [ -z "$out" ]; then pass "every value a program records is quoted by a chapter"
else fail "every value a program records is quoted by a chapter" "$out"; fi

out=$(book/check-units.sh)
if [ -z "$out" ]; then pass "no unspliced time, speed or size in the prose"
else fail "no unspliced time, speed or size in the prose" "$out"; fi
printf '# T\n\nIt trains in 70.2 s, under a minute, at a few GFLOP/s in 12 MB.\n\nSpliced: [k]{.val} s; `10 s`.\n' \
  > "$T/units.md"
if out=$(book/check-units.sh "$T/units.md") || [ "$(printf '%s\n' "$out" | wc -l)" -ne 4 ] \
   || ! printf '%s\n' "$out" | grep -q 'units.md:3: .*"70.2 s"'; then
  fail "a planted unspliced quantity is flagged (4 on line 3, none on line 5)" "$out"
else pass "a planted unspliced quantity is flagged (4 on line 3, none on line 5)"; fi
printf '# T\n\nTrained in seconds; a call takes microseconds.\n\nMeasured seconds per call.\n' \
  > "$T/bare.md"
if out=$(book/check-units.sh "$T/bare.md") || [ "$(printf '%s\n' "$out" | wc -l)" -ne 2 ] \
   || ! printf '%s\n' "$out" | grep -q 'bare.md:3: .*"in seconds"' \
   || ! printf '%s\n' "$out" | grep -q 'bare.md:3: .*"takes microseconds"'; then
  fail "a unit with no number is flagged (2 on line 3, none on line 5)" "$out"
else pass "a unit with no number is flagged (2 on line 3, none on line 5)"; fi

# Glossary terms are linked where the book first uses them; a term used first
# without its link, or never used, is flagged.
out=$(book/check-glossary.sh)
if [ -z "$out" ]; then pass "every glossary term is linked at its first use"
else fail "every glossary term is linked at its first use" "$out"; fi
printf '# G {.unnumbered}\n\n[Zeta]{#gl-zeta}\n:   A letter.\n\n[Omega]{#gl-omega}\n:   Another.\n' > "$T/gl.md"
printf '# C\n\nA zeta here, unlinked.\n\nThen [zeta](#gl-zeta), linked too late.\n' > "$T/98-gl.md"
out=$(book/check-glossary.sh "$T/gl.md" "$T/98-gl.md")
if printf '%s\n' "$out" | grep -q '98-gl.md:3: first use of "Zeta"' \
   && printf '%s\n' "$out" | grep -q '"Omega" (#gl-omega) is used by no chapter'; then
  pass "a glossary term used first without its link, or never, is flagged"
else fail "a glossary term used first without its link, or never, is flagged" "$out"; fi

# The front and back matter: a preface and a glossary page, linked from the
# index, and both in the PDF.
for page in preface glossary; do
  if [ -s "$B/html/$page.html" ] && grep -qF "href=\"$page.html" "$B/html/index.html"; then
    pass "index links to $page.html"
  else fail "index links to $page.html"; fi
done
if grep -q 'Preface' "$T/book-words.txt" && grep -q 'Glossary' "$T/book-words.txt"; then
  pass "the PDF has the preface and the glossary"
else fail "the PDF has the preface and the glossary"; fi

# A listing the prose names exists in the chapter it points at.
out=$(book/check-listings.sh "$B")
if [ -z "$out" ]; then pass "every listing the prose names is shown where it says"
else fail "every listing the prose names is shown where it says" "$out"; fi
mkdir -p "$T/ls"
printf '# P\n\nThe listing below is `mat_mul`.\n\n`softmax_backward` exists in the library.\n' > "$T/ls/02-plant.md"
out=$(book/check-listings.sh "$B" "$T/ls/02-plant.md")
if [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] && printf '%s\n' "$out" | grep -q '02-plant.md:3: `mat_mul`'; then
  pass "a listing the prose names but the chapter does not show is flagged"
else fail "a listing the prose names but the chapter does not show is flagged" "$out"; fi

# The search index holds maths as plain text (book/filter/plainmath.lua:
# \sqrt{d_k} -> √d_k), tested case by case and over every formula of the book
# by tests/plainmath.lua; a converter that leaves TeX as it is fails those tests.
out=$(pandoc -f markdown -t plain --lua-filter tests/plainmath.lua </dev/null 2>&1)
if ! echo "$out" | grep -q '^FAIL' && echo "$out" | grep -q '^cases [1-9][0-9]*, formulas [1-9]'; then
  pass "maths becomes plain text for the search ($(echo "$out" | grep '^cases'))"
else fail "maths becomes plain text for the search" "$out"; fi
printf 'return { convert = function(t) return t, {} end }\n' > "$T/identity.lua"
out=$(PLAINMATH="$T/identity.lua" pandoc -f markdown -t plain --lua-filter tests/plainmath.lua \
  </dev/null 2>&1)
if echo "$out" | grep -q '^FAIL "\\\\frac{a}{b}": got' && echo "$out" | grep -q 'a backslash is left'; then
  pass "a planted converter that leaves TeX as it is fails the maths tests"
else fail "a planted converter that leaves TeX as it is fails the maths tests" "$out"; fi
left=$(grep -o '\\\\[A-Za-z]\+' "$B/html/search-index.js" | sort | uniq -c | sort -rn | head -5)
if [ -s "$B/html/search-index.js" ] && [ -z "$left" ]; then
  pass "the search index holds no TeX command"
else fail "the search index holds no TeX command" "$left"; fi

# An unresolved directive fails the build and names the chapter file and line.
mkdir -p "$T/chapters"
printf '# Broken\n\nText [no_such_key]{.val program="nope"}.\n\n```{.c file="lib/attention/softmax.c" snippet="no_such_snippet"}\n```\n' \
  > "$T/chapters/98-broken.md"
if LITERATE_BUILD="$B" pandoc --lua-filter book/literate.lua -t html "$T/chapters/98-broken.md" \
     -o "$T/broken.html" 2>"$T/err"; then
  fail "an unresolved directive fails the build"
else
  if grep -q "98-broken.md:3: .*nope" "$T/err" && grep -q "98-broken.md:5: .*no_such_snippet" "$T/err"; then
    pass "an unresolved directive fails the build with file:line"
  else fail "an unresolved directive fails the build with file:line" "$(cat "$T/err")"; fi
fi

# A listing's label names what the cut declares, whatever stands above it in
# the file (a wrapped prototype above a typedef once labelled it with the
# prototype's function), or the function a cut inside a body comes from.
R=$PWD; mkdir -p "$T/lab/code" "$T/lab/chapters"
printf '%s\n' 'void far_above(const float *x,' '              int n);' '' '// snippet: t_t' \
  'typedef struct {' '    int n;' '} t_t;' '// end snippet' '' 'int f(int a)' '{' \
  '    // snippet: inside' '    return a;' '    // end snippet' '}' > "$T/lab/code/h.c"
printf '# L\n\n```{.c file="h.c" snippet="t_t"}\n```\n\n```{.c file="h.c" snippet="inside"}\n```\n' \
  > "$T/lab/chapters/95-lab.md"
(cd "$T/lab" && LITERATE_BUILD="$R/$B" pandoc --lua-filter "$R/book/literate.lua" -t html \
  chapters/95-lab.md -o lab.html 2>err)
labs=$(perl -0ne 'while (/listing-label">(.*?)<\/span>/sg) { ($x = $1) =~ s/\s+/ /g; print "$x|" }' \
  "$T/lab/lab.html" 2>/dev/null)
if [ "$labs" = "code/h.c · t_t|code/h.c · f()|" ]; then pass "a listing's label names what its cut declares"
else fail "a listing's label names what its cut declares" "got '$labs' $(cat "$T/lab/err" 2>/dev/null)"; fi

# The PDF has a table of contents, numbered chapters and a bibliography.
if grep -q 'Contents' "$T/book.txt"; then pass "PDF has a table of contents"; else fail "PDF has a table of contents"; fi
if grep -qE '^ *References' "$T/book.txt" && grep -q 'Vaswani' "$T/book.txt"; then pass "PDF has a bibliography"
else fail "PDF has a bibliography"; fi

# Cross-chapter references, alt text and heading levels: a page refers into
# another chapter by label; a bad one fails with file:line.
printf '# Other\n\n## A part {#sec:t-part}\n\n$$x = 1$$ {#eq:t-one}\n\nSee [](#sec:t-part), [](#eq:t-one) and [](#fig:nope).\n\n#### Too deep\n\n![](figures/ch02_heatmap.gp){#fig:t-noalt}\n' \
  > "$T/chapters/97-other.md"
printf '# Refs\n\nAs in [](#sec:t-part) and [](#eq:t-one).\n' > "$T/chapters/96-refs.md"
LITERATE_BUILD="$B" LITERATE_LABELS="$T/labels.tsv" pandoc -t plain --lua-filter book/literate.lua \
  "$T/chapters/97-other.md" -o /dev/null 2>/dev/null
mkdir -p "$T/b"; cp "$T/labels.tsv" "$T/b/labels.tsv" 2>/dev/null
if LITERATE_BUILD="$T/b" pandoc --lua-filter book/literate.lua -t html "$T/chapters/96-refs.md" -o "$T/refs.html" 2>"$T/err" \
   && grep -q 'href="97-other.html#sec:t-part">Section 97.1</a>' "$T/refs.html" \
   && grep -q 'href="97-other.html#eq:t-one">Equation 97.1</a>' "$T/refs.html"; then
  pass "a reference into another chapter resolves (Section N.k, Equation N.k)"
else fail "a reference into another chapter resolves (Section N.k, Equation N.k)" "$(cat "$T/err"; grep -o '<a[^>]*>[^<]*</a>' "$T/refs.html" 2>/dev/null)"; fi
if LITERATE_BUILD="$B" pandoc --lua-filter book/literate.lua -t html "$T/chapters/97-other.md" -o "$T/o.html" 2>"$T/err"; then
  fail "an unknown reference, a skipped heading level and a figure without alt text fail the build"
elif grep -q "97-other.md:7: reference to unknown figure fig:nope" "$T/err" \
     && grep -q "97-other.md:9: heading 'Too deep' is level 4 after level 2" "$T/err" \
     && grep -q "97-other.md:11: .*has no caption" "$T/err"; then
  pass "an unknown reference, a skipped heading level and a figure without alt text fail the build with file:line"
else fail "an unknown reference, a skipped heading level and a figure without alt text fail the build with file:line" "$(cat "$T/err")"; fi

# Every page carries the build stamp; the PDF's copyright page too.
stamp_ok=1
for page in "$B"/html/*.html; do grep -q 'class="stamp">Built from ' "$page" || { stamp_ok=0; echo "$page" > "$T/nostamp"; }; done
[ "$stamp_ok" = 1 ] && pass "every HTML page has the build stamp" || fail "every HTML page has the build stamp" "$(cat "$T/nostamp")"
if grep -q 'Built from ' "$T/book-words.txt"; then pass "the PDF has the build stamp"; else fail "the PDF has the build stamp"; fi

# Each chapter page offers its program and the modules it uses as a tarball (the first
# one is also built, to show the README's line works from the tarball alone).
built=0
for md in chapters/[0-9][0-9]-*.md; do
  name=$(basename "$md" .md); n=${name%%-*}
  prog=$(ls code/ch${n}_*.c 2>/dev/null | head -n1); prog=$(basename "${prog:-none}" .c)
  [ "$prog" = none ] && continue
  tgz="$B/html/download/$prog.tar.gz"
  if grep -q "href=\"download/$prog.tar.gz\"" "$B/html/$name.html" && tar -xzf "$tgz" -C "$T" \
     && [ -s "$T/$prog/code/$prog.c" ] && [ -s "$T/$prog/README.txt" ] \
     && { [ "$built" = 1 ] || (cd "$T/$prog" && eval "$(grep -m1 '^ *cc ' README.txt)" 2>&1 &&
                                  [ -x "$prog" ]); }; then
    pass "$name.html offers $prog.tar.gz$([ "$built" = 0 ] && echo ', and it builds')"
    built=1
  else fail "$name.html offers $prog.tar.gz"; fi
done

# Editing one chapter's prose remakes its own page and none of the other
# chapters' (their links name it by title, which labels.tsv carries), not the
# index (its headers come from contents.tsv), and only its own pieces of the
# whole books (the PDF's, the EPUB's and book.html's: book/build/piece.sh).
md=$(ls chapters/[0-9][0-9]-*.md | sed -n 3p)
name=$(basename "$md" .md)
# (what make would remake: the targets its "  TAG  TARGET" lines name)
remade=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -n -W "$md" B="$B" all 2>/dev/null |
  sed -n "s/^printf .* '[A-Z-]*' '\([^']*\)'.*/\1/p" |
  grep -oE "(html/[a-z0-9-]+\.html|pieces/[a-z0-9]+/[a-z0-9-]+\.json)$" | sort -u)
others=$(printf '%s\n' "$remade" | grep -vxE "html/($name|book)\.html|pieces/(latex|html5)/$name\.json" | grep .)
if make --no-print-directory -q B="$B" all 2>/dev/null; then uptodate=yes; else uptodate=no; fi
if [ -z "$others" ] && [ $uptodate = yes ] && printf '%s\n' "$remade" | grep -qx "html/$name.html" \
   && [ "$(printf '%s\n' "$remade" | grep -c "^pieces/.*/$name\.json$")" = 2 ]; then
  pass "editing $name.md remakes its page and pieces, and no other page or piece"
else fail "editing $name.md remakes its page and pieces, and no other page or piece" \
  "remade: $(echo $remade); the book up to date before: $uptodate"; fi

# The whole books are pieces joined (book/build/assemble.py): an id that an
# earlier piece uses is renamed as pandoc renames one in a file (ID-1), and the
# piece's own links follow it; a piece that is not pandoc JSON is one error line.
mkdir -p "$T/asm"
printf '# One\n\n## Exercises\n\nSee [the exercises](#exercises).\n' > "$T/asm/1.md"
printf '# Two\n\n## Exercises\n\nSee [the exercises](#exercises).\n' > "$T/asm/2.md"
for i in 1 2; do pandoc -t json "$T/asm/$i.md" -o "$T/asm/$i.json"; done
if book/build/assemble.py "$T/asm/all.json" "$T/asm/1.json" "$T/asm/2.json" \
   && pandoc -f json -t html "$T/asm/all.json" -o "$T/asm/all.html" \
   && [ "$(grep -o 'id="[^"]*"' "$T/asm/all.html" | sort | uniq -d)" = "" ] \
   && grep -q 'id="exercises-1"' "$T/asm/all.html" \
   && [ "$(grep -o 'href="#exercises[^"]*"' "$T/asm/all.html" | tr '\n' ' ')" = 'href="#exercises" href="#exercises-1" ' ]; then
  pass "joining the pieces keeps ids unique and each piece's links on its own ids"
else fail "joining the pieces keeps ids unique and each piece's links on its own ids" "$(cat "$T/asm/all.html" 2>&1)"; fi
echo 'not json' > "$T/asm/bad.json"
if out=$(book/build/assemble.py "$T/asm/x.json" "$T/asm/1.json" "$T/asm/bad.json" 2>&1); then
  fail "a piece that is not pandoc JSON fails the join with one line" "exit 0"
elif [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ $out == *bad.json* ]] && [ ! -e "$T/asm/x.json" ] \
     && [ -z "$(ls "$T/asm" | grep tmp)" ]; then
  pass "a piece that is not pandoc JSON fails the join with one line"
else fail "a piece that is not pandoc JSON fails the join with one line" "$out"; fi
# book.html is each piece written on its own, then joined (book/build/book_html.py):
# byte for byte what one pandoc run over the joined pieces writes
pieces=("$B"/pieces/html5/preface.json "$B"/pieces/html5/[0-9][0-9]-*.json "$B"/pieces/html5/glossary.json \
  "$B"/pieces/html5/appendix.json "$B"/pieces/html5/backmatter.json)
if book/build/assemble.py "$T/book.json" "${pieces[@]}" \
   && LITERATE_BUILD="$B" pandoc --from json --to html5 --standalone --self-contained \
      --template book/template.html --css book/style.css --mathml --lua-filter book/assemble.lua \
      --citeproc --bibliography book/references.bib --highlight-style pygments \
      --toc --toc-depth 1 --number-sections --metadata whole-book=true \
      --metadata pagetitle="The whole book" "$T/book.json" -o "$T/book.html" \
   && cmp -s "$T/book.html" "$B/html/book.html"; then
  pass "book.html, joined from the pieces' HTML, is what one pandoc run over the pieces writes"
else fail "book.html, joined from the pieces' HTML, is what one pandoc run over the pieces writes" \
  "$(diff <(fold -w 160 "$T/book.html") <(fold -w 160 "$B/html/book.html") | head -n 12)"; fi
# book.html: every id once, and every link to "#ID" finds it (the browser group
# checks the same in Chromium, the validate group with the Nu checker)
dups=$(grep -o ' id="[^"]*"' "$B/html/book.html" | sort | uniq -d | head -n 5)
missing=$(comm -23 <(grep -o 'href="#[^"]*"' "$B/html/book.html" | sed 's/^href="#//; s/"$//' | sort -u) \
  <(grep -o ' id="[^"]*"' "$B/html/book.html" | sed 's/^ id="//; s/"$//' | sort -u) | head -n 5)
if [ -z "$dups" ] && [ -z "$missing" ] && grep -q 'id="exercises-1"' "$B/html/book.html"; then
  pass "book.html: ids unique, every #link resolves"
else fail "book.html: ids unique, every #link resolves" "twice: $(echo $dups); no such id: $(echo $missing)"; fi

# Every cc command shown to a reader (the chapters, README.md, CONTRIBUTING.md, a
# tarball's README.txt) keeps the book's -std=c11 and -ffp-contract=off, and each
# file or glob it names exists: the first chapters once globbed code/lib/*.c,
# which matches nothing.
cc_problems() {   # cc_problems FILE...: one line per fault
  local f n line w
  for f in "$@"; do
    grep -n -oE '(^|`) *cc -[^`]*' "$f" | while IFS= read -r line; do
      n=${line%%:*}; line=${line#*:}; line=${line#\`}
      while [ "${line%\\}" != "$line" ]; do   # a continued line
        n=$((n + 1)); line="${line%\\} $(sed -n "${n}p" "$f")"
      done
      for w in -std=c11 -ffp-contract=off; do
        case " $line " in *" $w "*) ;; *) echo "$f: '$line' lacks $w" ;; esac
      done
      for w in $line; do
        case $w in code/*) [ -e "$w" ] || echo "$f: '$line': $w matches no file" ;; esac
      done
    done
  done
}
tar -xzf "$B/html/download/ch01_intuition.tar.gz" -O ch01_intuition/README.txt > "$T/tarball-README.txt" 2>/dev/null
bad=$(cc_problems chapters/*.md README.md CONTRIBUTING.md "$T/tarball-README.txt")
shown=$(grep -hcE '(^|`) *cc -' chapters/*.md README.md CONTRIBUTING.md "$T/tarball-README.txt" | awk '{ s += $1 } END { print s + 0 }')
printf 'x\n```sh\ncc -std=c11 -O3 -Icode/lib code/ch01_intuition.c code/lib/*.c \\\n  -lm -o x\n```\n' > "$T/planted.md"
planted=$(cc_problems "$T/planted.md" | wc -l)
if [ -z "$bad" ] && [ "$planted" = 2 ] && [ "$shown" -ge 5 ]; then
  pass "the $shown cc commands a reader is shown name files that exist and keep -std=c11 -ffp-contract=off (a planted one: $planted faults)"
else fail "the cc commands a reader is shown name files that exist and keep -std=c11 -ffp-contract=off" \
  "$bad${bad:+; }planted faults found: $planted of 2; commands found: $shown"; fi

# The EPUB: its XHTML well-formed (epubcheck's full check is in validate.sh),
# MathML math, the figures inside.
E="$B/attention-in-c.epub"
if [ ! -s "$E" ]; then fail "the EPUB exists" "$E is missing"
else
  mkdir -p "$T/epub" && unzip -q -o "$E" -d "$T/epub"
  if [ "$(head -c 20 "$T/epub/mimetype" 2>/dev/null)" = "application/epub+zip" ] \
     && xmllint --noout "$T"/epub/EPUB/*.opf "$T"/epub/EPUB/*.xhtml "$T"/epub/EPUB/text/*.xhtml 2>"$T/xml"; then
    pass "the EPUB unpacks and its XHTML is well-formed"
  else fail "the EPUB unpacks and its XHTML is well-formed" "$(head "$T/xml")"; fi
  if grep -q '<math' "$T"/epub/EPUB/text/ch*.xhtml; then pass "the EPUB has MathML"; else fail "the EPUB has MathML"; fi
  nfig=$(cat chapters/[0-9][0-9]-*.md | grep -o '](figures/[^)]*\.gp)' | sort -u | wc -l)
  nsvg=$(ls "$T"/epub/EPUB/media/*.svg 2>/dev/null | wc -l)
  if [ "$nsvg" -ge "$nfig" ] && [ "$nfig" -gt 0 ]; then pass "the EPUB has its $nfig figures"
  else fail "the EPUB has its $nfig figures" "found $nsvg SVG files"; fi
fi

# Figure text is readable on a phone: below 38rem, book/style.css shows an SVG
# figure at its own size (its width attribute) times the zoom it sets there,
# scrolling sideways if need be, so its base font (the most common font-size)
# in viewBox units, times width / viewBox width times that zoom, is the text
# height in pixels: at least 11 (tests/figures.sh measures every text in
# Chromium; this is the quick arithmetic of the same rule).
# Scripts that set smaller fonts of their own (multi-panel figures) are listed.
small=(); own=()
zoom=$(sed -n '/@media (max-width: 38rem)/,/^}/p' book/style.css \
  | grep -o 'figure img {[^}]*zoom: *[0-9.]*' | grep -o '[0-9.]*$')
[ -n "$zoom" ] || small+=("book/style.css: no figure zoom below 38rem")
for svg in "$B"/figures/ch[0-9][0-9]_*.svg; do
  [ -e "$svg" ] && [ -n "$zoom" ] || continue
  w=$(grep -o 'viewBox="0 0 [0-9.]*' "$svg" | head -n1 | awk '{print $3}')
  W=$(grep -o '<svg[^>]* width="[0-9.]*' "$svg" | head -n1 | grep -o '[0-9.]*$')
  read -r base least < <(grep -o 'font-size="[0-9.]*"' "$svg" | grep -o '[0-9.]*' \
    | sort | uniq -c | sort -k1,1nr -k2,2nr | awk 'NR == 1 { b = $2 } { if (m == "" || $2 < m) m = $2 } END { print b, m }')
  px=$(awk -v f="$base" -v w="$w" -v W="${W:-$w}" -v z="$zoom" 'BEGIN { printf "%.1f", f * W / w * z }')
  name=$(basename "$svg" .svg)
  [ -f "figures/$name.gp" ] || continue   # a TikZ diagram keeps its own size (style.css)
  if ! grep -q "font ',[0-9]" "figures/$name.gp"; then
    awk -v p="$px" 'BEGIN { exit !(p >= 11 - 0.05) }' || small+=("$name: ${px} px")
  else
    own+=("$name: base text ${px} px (the script sets its own fonts)")
  fi
done
if [ ${#small[@]} -eq 0 ]; then pass "figure text is at least 11 px tall at phone width"
else fail "figure text is at least 11 px tall at phone width" "$(printf '%s\n' "${small[@]}")"; fi
for o in "${own[@]}"; do echo "# $o"; done

# book.html keeps the page around the chapters' bodies under the hash of what
# makes it (book/build/book_html.py, shell_inputs): a change to one of those
# (here the stylesheet, which --self-contained puts in the page) is in the next
# book.html, though every body and the page's own document are unchanged. Run on
# copies (book/, the pieces and their kept bodies), so the build is untouched.
what="book.html made again after a change to book/style.css holds the change (its kept page is not reused)"
T=$(mktemp -d)
if [ -d "$B/pieces/html5" ] && mkdir -p "$T/b/pieces" && cp -r book "$T/book" &&
   cp -r "$B/pieces/html5" "$B/pieces/html5-body" "$T/b/pieces/" 2>/dev/null &&
   cp "$B/stamp.txt" "$T/b/"; then
  pieces=("$T/b/pieces/html5/preface.json")
  for md in chapters/[0-9][0-9]-*.md; do pieces+=("$T/b/pieces/html5/$(basename "$md" .md).json"); done
  pieces+=("$T/b/pieces/html5/glossary.json" "$T/b/pieces/html5/appendix.json"
           "$T/b/pieces/html5/backmatter.json")
  # a body made again (not kept) finds its figures where the pieces name them
  ln -s "$(cd "$B" && pwd)" "$T/$(basename "$B")" 2>/dev/null
  mark="planted-style-$$"
  top=$(pwd)
  if (cd "$T" && LITERATE_BUILD=b python3 "$top/book/build/book_html.py" b b/one.html "${pieces[@]}") &&
     printf '\n.%s { color: red }\n' "$mark" >> "$T/book/style.css" &&
     (cd "$T" && LITERATE_BUILD=b python3 "$top/book/build/book_html.py" b b/two.html "${pieces[@]}") &&
     ! grep -q "$mark" "$T/b/one.html" && grep -q "$mark" "$T/b/two.html"; then
    pass "$what"
  else fail "$what" "one.html holds the mark: $(grep -c "$mark" "$T/b/one.html" 2>/dev/null); two.html: $(grep -c "$mark" "$T/b/two.html" 2>/dev/null)"; fi
else fail "$what" "no pieces in $B/pieces/html5 to copy"; fi
rm -rf "$T"

# A chapter's body is kept with its images still named and inlined as the page is
# written: a figure drawn again under the same name, its piece unchanged, is in
# the next book.html (a kept body with the image inlined served the old figure).
# On copies: the pieces, their kept bodies and the figures.
what="book.html made again after a figure is drawn again (same name, same piece) shows the new figure"
T=$(mktemp -d)
fig=$(ls "$B"/figures/ch08_*.svg 2>/dev/null | head -n 1)
if [ -n "$fig" ] && mkdir -p "$T/b/pieces" "$T/$(basename "$B")" &&
   cp -r "$B/pieces/html5" "$B/pieces/html5-body" "$T/b/pieces/" 2>/dev/null &&
   cp "$B/stamp.txt" "$T/b/" && cp -r "$B/figures" "$T/$(basename "$B")/"; then
  pieces=("$T/b/pieces/html5/preface.json")
  for md in chapters/[0-9][0-9]-*.md; do pieces+=("$T/b/pieces/html5/$(basename "$md" .md).json"); done
  pieces+=("$T/b/pieces/html5/glossary.json" "$T/b/pieces/html5/appendix.json"
           "$T/b/pieces/html5/backmatter.json")
  ln -s "$(pwd)/book" "$T/book"
  copy="$T/$(basename "$B")/figures/$(basename "$fig")"
  top=$(pwd)
  printf '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><title>planted %s</title></svg>\n' "$$" > "$T/new.svg"
  new=$(base64 -w0 < "$T/new.svg")
  if (cd "$T" && LITERATE_BUILD=b python3 "$top/book/build/book_html.py" b b/one.html "${pieces[@]}") &&
     cp "$T/new.svg" "$copy" &&
     (cd "$T" && LITERATE_BUILD=b python3 "$top/book/build/book_html.py" b b/two.html "${pieces[@]}") &&
     ! grep -qF "$new" "$T/b/one.html" && grep -qF "$new" "$T/b/two.html"; then
    pass "$what"
  else fail "$what" "$(basename "$fig") redrawn: one.html holds it: $(grep -cF "$new" "$T/b/one.html" 2>/dev/null); two.html: $(grep -cF "$new" "$T/b/two.html" 2>/dev/null)"; fi
else fail "$what" "no figures or pieces in $B to copy"; fi
rm -rf "$T"
