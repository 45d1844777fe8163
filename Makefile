# Attention in C -- the one entry point.  `make help` lists the targets.
#
#   code/*.c --cc--> B/bin/chNN_* --run--> B/out/chNN_*.txt + B/data/chNN_*/
#   figures/*.gp + B/data --gnuplot--> B/figures/*.svg, *.pdf
#   chapters/*.md + book/ --pandoc + book/literate.lua--> B/html/, B/attention-in-c.pdf
#
# Every recipe writes a temporary file named after its shell's process id
# ($@.tmp.$$$$) and renames it, so a failed or killed step never leaves a
# half-written target, and two makes in one build directory never share a
# temporary file. V=1 shows full commands. B=DIR builds elsewhere.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules --no-builtin-variables

B ?= build
V ?= 0
ifeq ($(V),1)
  Q :=
  say = @:
else
  Q := @
  say = @printf '  %-6s %s\n' '$(1)' '$(2)'
endif

CC       := cc
CFLAGS   := -std=c11 -O2 -ffp-contract=off -g -Wall -Wextra -Wpedantic -Wshadow -Werror
CPPFLAGS := -Icode/lib -MMD -MP
LDLIBS   := -lm
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

PANDOC   := pandoc
GNUPLOT  := gnuplot

# A make killed midway leaves its temporaries (*.tmp.PID, *.tmp.PID.err,
# tex.tmp.PID/): the next make removes those whose process is gone.
_ := $(shell [ -d $(B) ] && find $(B) -name '*.tmp.[0-9]*' -prune 2>/dev/null | while read -r f; do \
  p=$$(echo "$$f" | sed 's/.*\.tmp\.\([0-9]*\).*/\1/'); \
  [ -n "$$p" ] && [ ! -d /proc/$$p ] && rm -rf "$$f"; done)

# --------------------------------------------------------------------------
# What exists

LIB_SRCS  := $(sort $(wildcard code/lib/*/*.c))
LIB_OBJS  := $(LIB_SRCS:code/%.c=$(B)/obj/%.o)
LIB       := $(B)/lib/libattention.a
SAN_LIB   := $(B)/san/lib/libattention.a
PROGRAMS  := $(sort $(patsubst code/%.c,%,$(wildcard code/ch[0-9][0-9]_*.c)))
CHAPTERS  := $(sort $(wildcard chapters/[0-9][0-9]-*.md))
FIG_NAMES := $(sort $(patsubst figures/%.gp,%,$(wildcard figures/ch[0-9][0-9]_*.gp)))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

BINS      := $(PROGRAMS:%=$(B)/bin/%)
OUTS      := $(PROGRAMS:%=$(B)/out/%.txt)
SVGS      := $(FIG_NAMES:%=$(B)/figures/%.svg)
PDFFIGS   := $(FIG_NAMES:%=$(B)/figures/%.pdf)
HTML      := $(CHAPTERS:chapters/%.md=$(B)/html/%.html) $(B)/html/index.html
PDF       := $(B)/attention-in-c.pdf

# Figure chNN_name draws data written by program chNN_*.
program_of = $(firstword $(filter $(firstword $(subst _, ,$(1)))_%,$(PROGRAMS)))

.PHONY: all html pdf programs outputs figures test check deps clean help \
        unit-tests sanitize check-snippets library refdriver
all: html pdf

help:
	@echo 'make            build the book: HTML ($(B)/html/) and PDF ($(PDF))'
	@echo 'make html       the HTML book only'
	@echo 'make pdf        the PDF book only'
	@echo 'make programs   compile the chapter programs into $(B)/bin/'
	@echo 'make outputs    run them: $(B)/out/*.txt and $(B)/data/*/'
	@echo 'make figures    draw every figure (SVG and PDF) into $(B)/figures/'
	@echo 'make test       build everything and run every test (alias: make check)'
	@echo 'make deps       install the Debian packages the project needs (as root)'
	@echo 'make clean      remove $(B)/'
	@echo 'options: V=1 (show commands), B=DIR (build directory, default build)'

# --------------------------------------------------------------------------
# Compiling

$(B)/obj/%.o: code/%.c
	$(call say,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@.tmp.$$$$ -MF $(@:.o=.d).tmp.$$$$ -MT $@ \
	  && mv $(@:.o=.d).tmp.$$$$ $(@:.o=.d) && mv $@.tmp.$$$$ $@

$(B)/san/%.o: code/%.c
	$(call say,CC-SAN,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN) -c $< -o $@.tmp.$$$$ -MF $(@:.o=.d).tmp.$$$$ -MT $@ \
	  && mv $(@:.o=.d).tmp.$$$$ $(@:.o=.d) && mv $@.tmp.$$$$ $@

# The library is built once, as one static archive (ar D: no timestamps, so it
# is reproducible); programs, unit tests and the reference driver link it, and
# the linker takes only the modules each one uses.
$(LIB): $(LIB_OBJS)
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)ar rcsD $@.tmp.$$$$ $^ && mv $@.tmp.$$$$ $@
$(SAN_LIB): $(LIB_SRCS:code/%.c=$(B)/san/%.o)
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)ar rcsD $@.tmp.$$$$ $^ && mv $@.tmp.$$$$ $@

$(B)/bin/%: $(B)/obj/%.o $(LIB)
	$(call say,LD,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@
$(B)/san/bin/%: $(B)/san/%.o $(SAN_LIB)
	$(call say,LD-SAN,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(SAN) $^ $(LDLIBS) -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@

library: $(LIB)
programs: $(BINS)

# Keep the programs' object files: deleted as intermediates, they would be
# remade by the next make (their .d files name them), and so would everything
# downstream of the programs.
.SECONDARY: $(PROGRAMS:%=$(B)/obj/%.o) $(PROGRAMS:%=$(B)/san/%.o)

# --------------------------------------------------------------------------
# Running: stdout into out/NAME.txt, figure data and values into data/NAME/

$(B)/out/%.txt: $(B)/bin/%
	$(call say,RUN,$*)
	@mkdir -p $(@D) $(B)/data
	$(Q)rm -f $@; tmp=$(B)/data/$*.tmp.$$$$; rm -rf $$tmp; \
	if $< --data $$tmp > $@.tmp.$$$$; then \
	  { rm -rf $(B)/data/$* && mv -T $$tmp $(B)/data/$*; } \
	    || { rm -rf $$tmp; [ -d $(B)/data/$* ]; }; mv $@.tmp.$$$$ $@; \
	else \
	  rm -rf $$tmp $@.tmp.$$$$; echo "error: $* failed" >&2; exit 1; \
	fi

outputs: $(OUTS)

# --------------------------------------------------------------------------
# Figures: one gnuplot script each, drawn as SVG (HTML) and PDF (PDF book)

# gnuplot only warns about a data file it cannot open, and draws the figure
# without that curve: any warning on its stderr fails the figure, and the
# message names the script and the missing file.
# cairo 1.16 stamps each PDF with the time it was drawn: put SOURCE_DATE_EPOCH
# there instead (same length, so the PDF's byte offsets stay right).
FIX_PDF_DATE = LC_ALL=C sed -i "s|/CreationDate (D:[0-9]\{14\}Z)|/CreationDate (D:$$(date -u -d @$(SOURCE_DATE_EPOCH) +%Y%m%d%H%M%S)Z)|"

define FIGURE_RULES
$(B)/figures/$(1).svg $(B)/figures/$(1).pdf: $(B)/figures/$(1).%: figures/$(1).gp figures/style.gp \
    $(B)/out/$(call program_of,$(1)).txt
	$$(call say,PLOT,$$@)
	@mkdir -p $$(@D)
	$$(Q)t=$$@.tmp.$$$$$$$$; TZ=UTC $$(GNUPLOT) -e "term='$$*'; out='$$$$t'; data='$(B)/data/$(call program_of,$(1))/'" \
	  $$< 2> $$$$t.err && ! grep -qiE 'warning|error' $$$$t.err \
	  && $$(if $$(filter pdf,$$*),$$(FIX_PDF_DATE) $$$$t &&) mv $$$$t $$@ && rm -f $$$$t.err \
	  || { echo "error: $$<: gnuplot failed or warned (a broken figure breaks the build):" >&2; \
	       sed 's/^/  /' $$$$t.err >&2; rm -f $$$$t $$$$t.err; exit 1; }
endef
$(foreach f,$(FIG_NAMES),$(eval $(call FIGURE_RULES,$(f))))

figures: $(SVGS) $(PDFFIGS)

# A figure that a chapter uses (the dependency files name it) but whose script
# is gone: fail, rather than let the figure drawn earlier stand in for it.
$(B)/figures/%.svg $(B)/figures/%.pdf: FORCE
	@echo "error: figures/$*.gp: no such figure script, but a chapter uses $@" >&2; exit 1
.PHONY: FORCE
FORCE:

# --------------------------------------------------------------------------
# The book

LITERATE = LITERATE_BUILD=$(B) LITERATE_CHAPTERS="$(CHAPTERS)" LITERATE_PROGRAMS="$(PROGRAMS)"
BOOK_DEPS := book/literate.lua book/metadata.yaml book/references.bib Makefile
HTML_DEPS := $(BOOK_DEPS) book/template.html book/style.css
PANDOC_HTML = $(PANDOC) --from markdown --to html5 --standalone --self-contained \
  --template book/template.html --css book/style.css --mathml \
  --metadata-file book/metadata.yaml --lua-filter book/literate.lua \
  --citeproc --bibliography book/references.bib --highlight-style pygments

$(B)/html/%.html: chapters/%.md $(HTML_DEPS) | $(OUTS) $(SVGS) $(B)/markers.ok
	$(call say,HTML,$@)
	@mkdir -p $(@D) $(B)/deps
	$(Q)d=$(B)/deps/tmp.$$$$; mkdir -p $$d; \
	$(LITERATE) LITERATE_TARGET=$@ LITERATE_DEPS=$$d/$*.html.d \
	  $(PANDOC_HTML) --toc --toc-depth 2 --number-sections \
	  --number-offset $$(( 10#$$(echo $* | cut -c1-2) - 1 )) \
	  --metadata pagetitle="$$(sed -n 's/^# //p' $< | head -n1)" \
	  $< -o $@.tmp.$$$$ || { rm -rf $$d $@.tmp.$$$$; exit 1; }; \
	mv $$d/$*.html.snippets $(B)/deps/ && mv $$d/$*.html.d $(B)/deps/ && rmdir $$d \
	  && mv $@.tmp.$$$$ $@

$(B)/html/index.html: book/index.md $(CHAPTERS) $(HTML_DEPS)
	$(call say,HTML,$@)
	@mkdir -p $(@D)
	$(Q)$(LITERATE) $(PANDOC_HTML) $< -o $@.tmp.$$$$ && mv $@.tmp.$$$$ $@

# Snippet and solution markers in the C sources pair up: an error names the C
# file and line, before any chapter tries to cut a listing from them.
CODE_SRCS := $(sort $(wildcard code/*.c code/lib/*/*.c code/lib/*/*.h))
$(B)/markers.ok: $(CODE_SRCS) book/check-markers.sh
	@mkdir -p $(@D)
	$(Q)book/check-markers.sh $(CODE_SRCS) | sed 's/^/error: /' >&2; touch $@

# Report snippet markers that no chapter shows (or that two chapters show).
$(B)/snippet-report.txt: $(filter-out $(B)/html/index.html,$(HTML)) book/check-snippets.sh
	$(Q)book/check-snippets.sh $(B) > $@.tmp.$$$$ || sed 's/^/warning: /' $@.tmp.$$$$ >&2; mv $@.tmp.$$$$ $@

html: $(HTML) $(B)/snippet-report.txt

# SOURCE_DATE_EPOCH makes the PDF reproducible (dates in its metadata).
export SOURCE_DATE_EPOCH ?= 1767225600
PANDOC_PDF = $(PANDOC) --from markdown --pdf-engine xelatex --standalone \
  --metadata-file book/metadata.yaml --lua-filter book/literate.lua \
  --citeproc --bibliography book/references.bib --highlight-style tango \
  --top-level-division chapter --number-sections --toc --toc-depth 2 \
  -H book/preamble.tex -V documentclass=book -V classoption=oneside \
  -V papersize=a4 -V geometry:margin=2.4cm -V fontsize=10pt \
  -V mainfont='DejaVu Serif' -V sansfont='DejaVu Sans' -V monofont='DejaVu Sans Mono' \
  -V monofontoptions='Scale=0.9' -V colorlinks=true -V linkcolor=blue -V urlcolor=blue

# LaTeX runs in a folder of its own (tex.tmp.PID), seeded with the auxiliary
# files of the last complete run, and is rerun until those files stop changing
# (page labels, contents and references then agree with the pages); if LaTeX
# fails on the saved files, it starts once more without them. Only a
# complete run replaces $(B)/tex and the PDF, so a run killed at any moment
# leaves nothing half-written behind; the next make removes the leftover folder.
TEX_AUX := book.aux book.toc book.out
$(PDF): $(CHAPTERS) book/backmatter.md book/preamble.tex $(BOOK_DEPS) | $(OUTS) $(PDFFIGS) $(B)/markers.ok
	$(call say,PDF,$@)
	@mkdir -p $(@D) $(B)/deps
	$(Q)w=$(B)/tex.tmp.$$$$; rm -rf $$w; mkdir -p $$w; \
	for f in $(TEX_AUX); do if [ -f $(B)/tex/$$f ]; then cp $(B)/tex/$$f $$w/; fi; done; \
	$(LITERATE) LITERATE_TARGET=$@ LITERATE_DEPS=$$w/book.pdf.d \
	  $(PANDOC_PDF) $(CHAPTERS) book/backmatter.md -o $$w/book.tex; \
	( cd $$w && pass=0 && retried= && while [ $$pass -lt 6 ]; do pass=$$((pass + 1)); \
	  before=$$( { cat $(TEX_AUX) 2>/dev/null || true; } | md5sum); \
	  if ! xelatex -interaction=nonstopmode -halt-on-error book.tex > xelatex.log 2>&1; then \
	    if [ -z "$$retried" ]; then retried=1; pass=0; rm -f $(TEX_AUX); continue; fi; \
	    echo "error: xelatex failed, see $$w/book.log:" >&2; grep -A5 '^!' book.log >&2; exit 1; \
	  fi; \
	  if [ "$$( { cat $(TEX_AUX) 2>/dev/null || true; } | md5sum)" = "$$before" ]; then exit 0; fi; done; \
	  echo "error: LaTeX's auxiliary files in $$w still change after 6 runs" >&2; exit 1 ); \
	mv $$w/book.pdf.d $$w/book.pdf.snippets $(B)/deps/; mv $$w/book.pdf $@.tmp.$$$$; \
	{ rm -rf $(B)/tex && mv -T $$w $(B)/tex; } || rm -rf $$w; mv $@.tmp.$$$$ $@

pdf: $(PDF)

-include $(wildcard $(B)/deps/*.d)

# --------------------------------------------------------------------------
# Tests (the test scripts in tests/ print TAP; tests/run.sh counts it)

check: test
test: all
	$(Q)tests/run.sh $(B)

# --------------------------------------------------------------------------
# Unit tests (Criterion) and sanitizer builds, driven by tests/run.sh

UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
SAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/san/tests/%)
SAN_BINS := $(PROGRAMS:%=$(B)/san/bin/%)

$(B)/tests/%: tests/unit/%.c $(LIB)
	$(call say,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MF $@.d.tmp.$$$$ -MT $@ $(filter %.c %.a,$^) -lcriterion $(LDLIBS) \
	  -o $@.tmp.$$$$ && mv $@.d.tmp.$$$$ $@.d && mv $@.tmp.$$$$ $@

$(B)/san/tests/%: tests/unit/%.c $(SAN_LIB)
	$(call say,CC-SAN,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(SAN) -MF $@.d.tmp.$$$$ -MT $@ $(filter %.c %.a,$^) -lcriterion $(LDLIBS) \
	  -o $@.tmp.$$$$ && mv $@.d.tmp.$$$$ $@.d && mv $@.tmp.$$$$ $@

# The PyTorch reference driver: tests/reference/driver.c plus one table of
# wrappers per tests/reference/fns_*.c, listed in a generated header.
REF_FNS := $(sort $(wildcard tests/reference/fns_*.c))
$(B)/tests/ref/ref_tables.h: Makefile $(REF_FNS)
	@mkdir -p $(@D)
	$(Q){ $(foreach f,$(REF_FNS),echo 'extern const ref_entry REF_$(basename $(notdir $(f)))[];';) \
	  echo 'static const ref_entry *const REF_TABLES[] = {'; echo '    REF_core,'; \
	  $(foreach f,$(REF_FNS),echo '    REF_$(basename $(notdir $(f))),';) echo '    NULL,'; echo '};'; \
	} > $@.tmp.$$$$ && mv $@.tmp.$$$$ $@
$(B)/tests/refdriver: tests/reference/driver.c $(REF_FNS) tests/reference/driver.h \
    $(B)/tests/ref/ref_tables.h $(LIB)
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) -I$(B)/tests/ref -Itests/reference $(CFLAGS) -MF $@.d.tmp.$$$$ -MT $@ \
	  tests/reference/driver.c $(REF_FNS) $(LIB) $(LDLIBS) -o $@.tmp.$$$$ \
	  && mv $@.d.tmp.$$$$ $@.d && mv $@.tmp.$$$$ $@
refdriver: $(B)/tests/refdriver

unit-tests: $(UNIT_BINS)
sanitize: $(SAN_BINS) $(SAN_UNIT_BINS)

-include $(wildcard $(B)/obj/*.d $(B)/obj/lib/*/*.d $(B)/san/*.d $(B)/san/lib/*/*.d \
  $(B)/tests/*.d $(B)/san/tests/*.d)

# --------------------------------------------------------------------------
# Dependencies (Debian 12). Idempotent: a quick check first, apt only if needed.

DEB_PACKAGES := make gcc clang libc6-dev pkg-config pandoc gnuplot-nox \
  texlive-xetex texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
  lmodern fonts-dejavu-core poppler-utils libcriterion-dev valgrind \
  python3 python3-numpy python3-torch chromium chromium-driver

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${db:Status-Status}\n' $$p 2>/dev/null | grep -qx installed || echo $$p; \
	done); \
	if [ -z "$$missing" ]; then echo "deps: all $(words $(DEB_PACKAGES)) packages installed"; \
	elif [ "$$(id -u)" != 0 ]; then \
	  echo "deps: missing:" $$missing; echo "deps: run 'sudo make deps' (needs root for apt-get)"; exit 1; \
	else \
	  echo "deps: installing:" $$missing; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
	    --no-install-recommends $$missing; \
	fi
	@# Node.js (for the browser test): keep a machine's own node if it has one.
	@command -v npm >/dev/null || { [ "$$(id -u)" = 0 ] && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nodejs npm; }

clean:
	rm -rf $(B)
