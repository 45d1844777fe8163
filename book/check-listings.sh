#!/usr/bin/env bash
# check-listings.sh BUILD_DIR [CHAPTER...] -- every listing the prose names is
# there. A C function written in backticks (`f` or `f()`) in a sentence that
# says it is shown ("listing", "listed", "shown", "shows", "below", "above",
# "here is"), or written as "chapter N's `f`", must be defined in a listing of
# the chapter the sentence points at: "chapter N" or a cross-reference
# [](#sec:...) in the sentence, else its own chapter. Which listings a chapter
# shows comes from the usage logs the filter wrote (BUILD/deps/*.snippets).
# Prints FILE:LINE: one line per name not listed there; exits 1 if any.
set -u
export LC_ALL=C.UTF-8   # the same in any locale of the caller (tr_TR: [a-z] skips i)
B=${1:-build}; shift || true
[ $# -gt 0 ] || set -- chapters/[0-9][0-9]-*.md
[ -d "$B/deps" ] || { echo "check-listings.sh: no $B/deps (build the HTML first)" >&2; exit 2; }
exec perl -e '
use strict; use warnings;
my ($B, @md) = @ARGV;
sub slurp { open(my $f, "<", $_[0]) or return undef; local $/; my $t = <$f>; close $f; $t }
my $defre = qr/^[A-Za-z_][\w \t\*]*?[ \t\*]([A-Za-z_]\w*)\s*\(/m;
# Every function the code defines or declares, so that prose words like `x` are ignored.
my %known;
for my $src (split /\n/, `find code -name "*.c" -o -name "*.h"`) {
  my $t = slurp($src) // next;
  while ($t =~ /$defre/g) { $known{$1} = 1 }
}
# "typedef float (*f)(...)" matches the pattern with a type name: C words are not functions.
delete @known{qw(void char short int long float double signed unsigned const volatile
                 static inline extern struct union enum typedef return sizeof _Bool)};
# shown{N}{f}: chapter N shows a listing that defines or declares f.
my %shown;
for my $log (glob("$B/deps/[0-9][0-9]-*.html.snippets")) {
  my ($n) = $log =~ m{/(\d\d)-[^/]*$}; $n += 0;
  for my $line (split /\n/, slurp($log) // "") {
    my (undef, $file, $name) = split /\t/, $line;
    next unless defined $name;
    my $t = slurp($file) // next;
    next unless $t =~ m{//\s*snippet:\s*\Q$name\E\s*\n(.*?)//\s*end snippet}s;
    my $cut = $1;
    while ($cut =~ /$defre/g) { $shown{$n}{$1} = 1 }
  }
}
my %label_chapter;
for my $line (split /\n/, slurp("$B/labels.tsv") // "") {
  my ($id, undef, $num) = split /\t/, $line;
  ($label_chapter{$id}) = $num =~ /^(\d+)/ if defined $num;
}
my ($status, $checked) = (0, 0);
for my $md (@md) {
  my ($self) = $md =~ m{(\d\d)-[^/]*$}; $self += 0;
  my $text = slurp($md) // die "check-listings.sh: cannot read $md\n";
  # Blank out code blocks, keeping line numbers.
  $text =~ s{^(```|~~~).*?^\1[^\n]*$}{ my $b = $&; $b =~ s/[^\n]//g; $b }gmse;
  # Sentences: split at ". " or a blank line; remember where each starts.
  my $pos = 0;
  for my $s (split /(?<=[.:;!?])\s+(?=[A-Z\[`*])|\n\s*\n/, $text) {
    my $start = index($text, $s, $pos); $pos = $start + length($s) if $start >= 0;
    my $line = 1 + (substr($text, 0, $start < 0 ? 0 : $start) =~ tr/\n//);
    my $target;
    if ($s =~ /\b[Cc]hapter\s+(\d+)\x27s\s+`/) { $target = $1 }
    elsif ($s =~ /\b(listing|listed|lists|shown|shows|below|above|here is)\b/i) {
      if ($s =~ /\[\]\(#([a-z]+:[\w-]+)\)/ && defined $label_chapter{$1}) { $target = $label_chapter{$1} }
      elsif ($s =~ /\b[Cc]hapter\s+(\d+)\b/) { $target = $1 }
      else { $target = $self }
    } else { next }
    while ($s =~ /`([A-Za-z_]\w*)(?:\(\))?`/g) {
      my $fn = $1;
      next unless $known{$fn};
      $checked++;
      next if $shown{$target}{$fn};
      print "$md:$line: `$fn` is referred to as a listing of chapter $target, which shows no listing of it\n";
      $status = 1;
    }
  }
}
print STDERR "check-listings.sh: $checked references to listings checked\n" if $ENV{CHECK_LISTINGS_VERBOSE};
exit $status;
' "$B" "$@"
