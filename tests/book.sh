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

# The PDF has a table of contents, numbered chapters and a bibliography.
if grep -q 'Contents' "$T/book.txt"; then pass "PDF has a table of contents"; else fail "PDF has a table of contents"; fi
if grep -qE '^ *References' "$T/book.txt" && grep -q 'Vaswani' "$T/book.txt"; then pass "PDF has a bibliography"
else fail "PDF has a bibliography"; fi

# Figure text is readable on a phone: an SVG figure is scaled to the page width
# (~352 px on a 390 px phone, but style.css keeps figures at least 26rem = 416
# px wide there), so its base font (the most common font-size) in viewBox units,
# times 416 / the viewBox width, is the text height in pixels.
# Scripts that set smaller fonts of their own (multi-panel figures) are listed.
small=(); own=()
for svg in "$B"/figures/ch[0-9][0-9]_*.svg; do
  [ -e "$svg" ] || continue
  w=$(grep -o 'viewBox="0 0 [0-9.]*' "$svg" | head -n1 | awk '{print $3}')
  read -r base least < <(grep -o 'font-size="[0-9.]*"' "$svg" | grep -o '[0-9.]*' \
    | sort | uniq -c | sort -k1,1nr -k2,2nr | awk 'NR == 1 { b = $2 } { if (m == "" || $2 < m) m = $2 } END { print b, m }')
  px=$(awk -v f="$base" -v w="$w" 'BEGIN { printf "%.1f", f * 416 / w }')
  name=$(basename "$svg" .svg)
  if ! grep -q "font ',[0-9]" "figures/$name.gp"; then
    awk -v p="$px" 'BEGIN { exit !(p >= 8.5) }' || small+=("$name: ${px} px")
  else
    own+=("$name: base text ${px} px (the script sets its own fonts)")
  fi
done
if [ ${#small[@]} -eq 0 ]; then pass "figure text is at least 8.5 px tall at phone width"
else fail "figure text is at least 8.5 px tall at phone width" "$(printf '%s\n' "${small[@]}")"; fi
for o in "${own[@]}"; do echo "# $o"; done
