#!/usr/bin/env bash
# figure.sh BUILD_DIR TARGET SCRIPT PROGRAM -- draw one gnuplot figure (SCRIPT, a
# figures/*.gp in the style figures/style.gp) as TARGET, a .svg (HTML, EPUB) or a
# .pdf (the PDF book), from the data PROGRAM wrote into BUILD_DIR/data/PROGRAM/
# (and, for chapter 9's figures, any program's: alldata).
#
# gnuplot only warns about a data file it cannot open and draws the figure
# without that curve: any warning on its stderr fails the figure, and the
# message names the script and the missing file. cairo 1.16 stamps each PDF with
# the time it was drawn: SOURCE_DATE_EPOCH goes there instead (same length, so
# the PDF's byte offsets stay right). gnuplot names the group of every titled
# plot id="gnuplot_plot_1" and repeats the names in every panel of a multiplot:
# they are numbered so that ids stay unique (the EPUB's SVGs are XML documents).
# Written under TARGET.tmp.PID and renamed.
set -uo pipefail
export LC_ALL=C.UTF-8 TZ=UTC   # gnuplot reads the style's UTF-8 (a degree sign)
B=$1 target=$2 script=$3 program=$4
kind=${target##*.}
case $kind in pdf|svg) ;; *) echo "figure.sh: $target: not .pdf or .svg" >&2; exit 2 ;; esac
[ -f "$script" ] || { echo "figure.sh: no such figure script: $script" >&2; exit 2; }
mkdir -p "$(dirname "$target")"
t=$target.tmp.$$
fix() {
  if [ "$kind" = pdf ]; then
    LC_ALL=C sed -i "s|/CreationDate (D:[0-9]\{14\}Z)|/CreationDate (D:$(date -u -d "@${SOURCE_DATE_EPOCH:-0}" +%Y%m%d%H%M%S)Z)|" "$t"
  else
    perl -pi -e 's/id="(gnuplot_plot_\w+)"/"id=\"$1_" . ++$n{$1} . "\""/ge' "$t"
  fi
}
if gnuplot -e "term='$kind'; out='$t'; data='$B/data/$program/'; alldata='$B/data/'" \
     "$script" 2> "$t.err" && ! grep -qiE 'warning|error' "$t.err" && fix && mv "$t" "$target"; then
  rm -f "$t.err"
else
  echo "error: $script: gnuplot failed or warned (a broken figure breaks the build):" >&2
  sed 's/^/  /' "$t.err" >&2
  rm -f "$t" "$t.err"
  exit 1
fi
