#!/usr/bin/env bash
# check-glossary.sh [GLOSSARY [CHAPTER...]] -- every term of the glossary is
# linked where the book first uses it. A term is "[Term]{#gl-id}" in
# book/glossary.md; its first use is the first prose line of the chapters, in
# book order, that contains the term (any case, a plural "s" or "es" allowed,
# a hyphen or a space alike), outside code, math and headings. That use must
# be inside a link [...](#gl-id). Prints FILE:LINE: one line per term whose
# first use is not linked, or that no chapter uses; exits 1 if any, 2 if a
# file cannot be read.
set -u
G=${1:-book/glossary.md}; [ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- chapters/[0-9][0-9]-*.md
for f in "$G" "$@"; do [ -r "$f" ] || { echo "check-glossary.sh: cannot read $f" >&2; exit 2; }; done
exec perl -CSD -e '
use strict; use warnings;
my ($g, @md) = @ARGV;
open(my $fh, "<", $g) or die; my @terms;
while (<$fh>) { push @terms, [$1, $2] while /\[([^\]]+)\]\{#(gl-[\w-]+)\}/g }
close $fh;
# Every prose line of the chapters, in order: [file, line number, text].
my @lines;
for my $f (@md) {
  open(my $c, "<", $f) or die; my ($fence, $n, $display) = (0, 0, 0);
  while (my $l = <$c>) {
    $n++;
    if ($l =~ /^\s*(```|~~~)/) { $fence = !$fence; next }
    if ($l =~ /^\s*\$\$\s*$/) { $display = !$display; next }
    next if $fence || $display || $l =~ /^#/;
    $l =~ s/`[^`]*`/ /g; $l =~ s/\$\$.*?\$\$/ /g; $l =~ s/\$[^\$]*\$/ /g;
    $l =~ s/\]\([^)]*\)/]/g unless $l =~ /\(#gl-/;   # link targets are not prose
    push @lines, [$f, $n, $l];
  }
}
my $status = 0;
for my $t (@terms) {
  my ($term, $id) = @$t;
  my $re = join("[- ]", map { quotemeta } split /[- ]/, $term);
  my $found = 0;
  for my $ln (@lines) {
    my ($f, $n, $l) = @$ln;
    my $plain = $l; $plain =~ s/\]\(#gl-[\w-]+\)/]/g;
    next unless $plain =~ /(?<![\w-])$re(?:e?s)?(?!\w)/i;
    $found = 1;
    # The first occurrence must sit inside [...](#id).
    my $ok = 0;
    if ($l =~ /(?<![\w-])$re(?:e?s)?(?!\w)/ig) {
      my $at = $-[0]; pos($l) = undef;
      while ($l =~ /\[([^\]]*)\]\(#\Q$id\E\)/g) { $ok = 1 if $-[1] <= $at && $at < $+[1] }
    }
    unless ($ok) { print "$f:$n: first use of \"$term\" is not linked to the glossary (#$id)\n"; $status = 1 }
    last;
  }
  unless ($found) { print "$g: \"$term\" (#$id) is used by no chapter\n"; $status = 1 }
}
exit $status;
' "$G" "$@"
