# Attention in C -- the one entry point; `make help` lists the targets. A page of
# edges: what is made from what. Recipes longer than a line are book/build/*.sh.
#   code/*.c --cc--> B/bin/chNN_* --run--> B/out/chNN_*.txt + B/data/chNN_*/
#   figures/*.gp + B/data --gnuplot--> B/figures/*.svg, *.pdf
#   chapters/*.md + book/ --pandoc + book/literate.lua--> B/html/, B/attention-in-c.pdf
# Every step writes NAME.tmp.PID and renames it: a failed or killed step leaves no
# half-written target, two makes never share a file. V=1 shows commands, B=DIR.

SHELL := /bin/bash
# One locale whatever the caller's (tr_TR: [a-z] skips i); Debian's tools first (make deps).
export LC_ALL := C.UTF-8
export PATH := /usr/bin:$(PATH)
.SHELLFLAGS := -o pipefail -ec
.DELETE_ON_ERROR:
.SUFFIXES:
MAKEFLAGS += --no-builtin-rules --no-builtin-variables
# A job a core by default (every edge is here); -jN on the command line wins.
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

B ?= build
V ?= 0
# $(call say,TAG,WHAT) starts a recipe line: it prints "  TAG WHAT" (V=1: the command).
Q   := $(if $(filter 1,$(V)),,@)
say  = $(if $(Q),@printf '  %-6s %s\n' '$(1)' '$(2)';)

CC       := cc
# -O3: the trainers a fifth faster than -O2, the same bytes out (tests/determinism.sh).
CFLAGS   := -std=c11 -O3 -ffp-contract=off -g -Wall -Wextra -Wpedantic -Wshadow -Werror
CPPFLAGS := -Icode/lib -MMD -MP
LDLIBS   := -lm
# Sanitizers at -O1 (the unit tests' own code -O0), line tables only (CONTRIBUTING.md).
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -O1 -g1
# The tests' own binaries link with gold, where it exists (link.sh reads ld.bfd's map).
TEST_LD  := $(if $(wildcard /usr/bin/ld.gold),-fuse-ld=gold)

# The temporaries (*.tmp.PID) of a killed make go as the next starts (book/build/sweep.sh).
_ := $(shell book/build/sweep.sh $(B))
# What exists (OUTS: later chapters first: `all` starts the longest runs first)
LIB_SRCS  := $(sort $(wildcard code/lib/*/*.c))
LIB_OBJS  := $(LIB_SRCS:code/%.c=$(B)/obj/%.o)
LIB       := $(B)/lib/libattention.a
SAN_LIB   := $(B)/san/lib/libattention.a
PROGRAMS  := $(sort $(patsubst code/%.c,%,$(wildcard code/ch[0-9][0-9]_*.c)))
CHAPTERS  := $(sort $(wildcard chapters/[0-9][0-9]-*.md))
FIG_NAMES := $(sort $(patsubst figures/%.gp,%,$(wildcard figures/ch[0-9][0-9]_*.gp)))
DIAG_NAMES := $(sort $(patsubst figures/%.tex,%,$(wildcard figures/ch[0-9][0-9]_*.tex)))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
BINS      := $(PROGRAMS:%=$(B)/bin/%)
reverse   = $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
OUTS      := $(call reverse,$(PROGRAMS:%=$(B)/out/%.txt))
SVGS      := $(FIG_NAMES:%=$(B)/figures/%.svg) $(DIAG_NAMES:%=$(B)/figures/%.svg)
PDFFIGS   := $(FIG_NAMES:%=$(B)/figures/%.pdf) $(DIAG_NAMES:%=$(B)/figures/%.pdf)
CHAPTER_HTML := $(CHAPTERS:chapters/%.md=$(B)/html/%.html)
HTML      := $(CHAPTER_HTML) $(B)/html/index.html $(B)/html/preface.html $(B)/html/glossary.html \
             $(B)/html/appendix.html
# Front and back matter: unnumbered, around the chapters in the PDF and EPUB.
FRONT     := book/preface.md
BACK      := book/glossary.md book/appendix.md book/backmatter.md
# the appendix's table, read from the reference tests (tests/reference/torch_table.py)
TORCH_TABLE := $(B)/torch_table.md
PDF       := $(B)/attention-in-c.pdf
EPUB      := $(B)/attention-in-c.epub
LIB_HDRS  := $(sort $(wildcard code/lib/*/*.h))
DOWNLOADS := $(PROGRAMS:%=$(B)/html/download/%.tar.gz)

# Figure chNN_name draws data written by program chNN_*.
program_of = $(firstword $(filter $(firstword $(subst _, ,$(1)))_%,$(PROGRAMS)))
.PHONY: all html pdf epub programs outputs figures test check deps clean help bench FORCE \
        unit-tests sanitize library refdriver assignments gradescope solution-markers leaks \
        wrongs wrongs-table instructors
all: outputs solution-markers pdf html epub  ## the book: HTML, PDF and EPUB in $(B)/
help:  ## this list (options: V=1 shows commands, B=DIR the build folder)
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  make %-14s %s\n", $$1, $$2 }' Makefile \
	  | sed 's|$$(B)|$(B)|g'

# Compiling
# cc FLAGS...: compile or link $@ (and its .d) under temporary names, then rename
cc = mkdir -p $(@D); t=$@.tmp.$$$$; $(CC) $(CPPFLAGS) $(CFLAGS) $(1) -MF $$t.d -MT $@ -o $$t \
  && mv $$t.d $(basename $@).d && mv $$t $@ || { rm -f $$t $$t.d; exit 1; }
# Static rules, today's sources only: a moved module's old object has no rule.
$(LIB_OBJS) $(PROGRAMS:%=$(B)/obj/%.o): $(B)/obj/%.o: code/%.c
	$(call say,CC,$<) $(call cc,-c $<)
$(LIB_SRCS:code/%.c=$(B)/san/%.o) $(PROGRAMS:%=$(B)/san/%.o): $(B)/san/%.o: code/%.c
	$(call say,CC-SAN,$<) $(call cc,$(SAN) -c $<)
# One static archive (ar D: reproducible); the linker takes the modules each program uses.
$(LIB): $(LIB_OBJS)
$(SAN_LIB): $(LIB_SRCS:code/%.c=$(B)/san/%.o)
$(LIB) $(SAN_LIB):
	$(call say,AR,$@) mkdir -p $(@D) && ar rcsD $@.tmp.$$$$ $^ && mv $@.tmp.$$$$ $@
# A program depends on the archive members it links (link.sh, from the linker's map).
$(B)/bin/%: $(B)/obj/%.o | $(LIB)
	$(call say,LD,$@) book/build/link.sh $(B) $@ $< $(LIB) $(CC) $(CFLAGS)
$(B)/san/bin/%: $(B)/san/%.o $(SAN_LIB)
	$(call say,LD-SAN,$@) mkdir -p $(@D) && $(CC) $(CFLAGS) $(SAN) $(TEST_LD) $^ $(LDLIBS) -o $@.tmp.$$$$ \
	  && mv $@.tmp.$$$$ $@
# A chapter program may print the flags it was built with (ch05's measured section).
$(B)/obj/ch%.o: CPPFLAGS += -DBUILD_CFLAGS='"$(CFLAGS)"'
$(B)/san/ch%.o: CPPFLAGS += -DBUILD_CFLAGS='"$(CFLAGS) $(SAN)"'
library: $(LIB)
programs: $(BINS)  ## compile the chapter programs into $(B)/bin/
outputs: $(OUTS)  ## run them: $(B)/out/*.txt and $(B)/data/*/
# Running: stdout into out/NAME.txt, figure data and values into data/NAME/.
$(B)/out/%.txt: $(B)/bin/%
	$(call say,RUN,$*) book/build/run.sh $(B) $*
# values.tsv removed alone cannot be made alone: drop the output, so the program reruns.
$(B)/data/%/values.tsv: | $(B)/out/%.txt
	@[ -f $@ ] || { rm -f $(B)/out/$*.txt; echo "error: $@ is missing; make again to rerun $*" >&2; exit 1; }
# Figures: a gnuplot script each, drawn as SVG (HTML) and PDF (PDF book) by figure.sh.
define FIGURE_RULES
$(B)/figures/$(1).svg $(B)/figures/$(1).pdf: $(B)/figures/$(1).%: figures/$(1).gp figures/style.gp \
    book/build/figure.sh $(B)/out/$(call program_of,$(1)).txt
	$$(call say,PLOT,$$@) book/build/figure.sh $(B) $$@ $$< $(call program_of,$(1))
endef
$(foreach f,$(FIG_NAMES),$(eval $(call FIGURE_RULES,$(f))))
# Chapter 9's figures may read chapter 8's data too (they compare the models).
$(foreach f,$(filter ch09_%,$(FIG_NAMES)),$(eval \
  $(B)/figures/$(f).svg $(B)/figures/$(f).pdf: $(B)/out/ch08_seq2seq.txt))
# Diagrams: figures/chNN_name.tex in figures/diagram.tex's style; \val{key} reads values.tsv.
define DIAGRAM_RULES
$(B)/figures/$(1).pdf $(B)/figures/$(1).svg: $(B)/figures/$(1).%: figures/$(1).tex figures/diagram.tex \
    book/build/diagram.sh $(B)/out/$(call program_of,$(1)).txt
	$$(call say,TIKZ,$$@) book/build/diagram.sh $(B) $$@ $$< $(B)/data/$(call program_of,$(1))/values.tsv
endef
$(foreach f,$(DIAG_NAMES),$(eval $(call DIAGRAM_RULES,$(f))))
figures: $(SVGS) $(PDFFIGS)  ## draw every figure (SVG and PDF) into $(B)/figures/
# The cover (PDF title page, EPUB cover): book/cover.tex with chapter 8's attention.
COVER_DATA := $(B)/data/ch08_seq2seq/align_long.dat
$(B)/figures/cover.pdf $(B)/figures/cover.png: $(B)/figures/cover.%: book/cover.tex book/build/cover.sh \
    book/metadata.yaml $(B)/out/ch08_seq2seq.txt
	$(call say,COVER,$@) book/build/cover.sh $(B) $@ $(COVER_DATA)
# A figure a chapter uses whose script is gone fails, rather than an old one standing in.
$(B)/figures/%.svg $(B)/figures/%.pdf: FORCE
	@echo "error: figures/$*.gp: no such figure script, but a chapter uses $@" >&2; exit 1
FORCE:

# The book: pages, PDF and EPUB by pandoc and book/literate.lua (book/build/*.sh)
LITERATE = LITERATE_BUILD=$(B) LITERATE_CHAPTERS="$(CHAPTERS)" LITERATE_PROGRAMS="$(PROGRAMS)"
BOOK_DEPS := book/literate.lua $(wildcard book/filter/*.lua) book/metadata.yaml book/references.bib Makefile
HTML_DEPS := $(BOOK_DEPS) book/template.html book/style.css book/book.js $(B)/stamp.txt \
  book/build/html.sh book/build/inline.py

# Every label with its number, rewritten as make starts when one changed (labels.sh).
ifeq ($(filter-out deps clean help,$(or $(MAKECMDGOALS),all)),)
else
_ := $(shell $(LITERATE) book/build/labels.sh $(B) $(CHAPTERS))
endif
$(B)/labels.tsv $(B)/contents.tsv:
	@cat $(B)/labels.err >&2 2>/dev/null || echo "error: $@ is missing: make again" >&2; exit 1
# The whole books are pieces: each source through the filter on its own, as pandoc JSON
# (piece.sh; latex for the PDF, html5 for EPUB and book.html), joined by assemble.py.
PIECE_SRCS   := $(FRONT) $(CHAPTERS) $(BACK)
pieces_of     = $(foreach f,$(PIECE_SRCS),$(B)/pieces/$(1)/$(notdir $(f:.md=.json)))
LATEX_PIECES := $(call pieces_of,latex)
HTML_PIECES  := $(call pieces_of,html5)
ASSEMBLE_DEPS := book/build/assemble.py book/assemble.lua $(B)/stamp.txt
# $(call PIECE_RULES,FLAVOUR,FIGURES): chapters read the labels; the matter, the table.
define PIECE_RULES
$(CHAPTERS:chapters/%.md=$(B)/pieces/$(1)/%.json): $(B)/pieces/$(1)/%.json: chapters/%.md \
    $(BOOK_DEPS) book/build/piece.sh $(B)/labels.tsv | $(B)/markers.ok
	$$(call say,PIECE,$$@) $(LITERATE) book/build/piece.sh $(B) $(1) $$@ $$<
$(patsubst book/%.md,$(B)/pieces/$(1)/%.json,$(FRONT) $(BACK)): $(B)/pieces/$(1)/%.json: book/%.md \
    $(BOOK_DEPS) book/build/piece.sh $(B)/labels.tsv $(TORCH_TABLE)
	$$(call say,PIECE,$$@) $(LITERATE) book/build/piece.sh $(B) $(1) $$@ $$<
endef
$(eval $(call PIECE_RULES,latex,$(PDFFIGS)))
$(eval $(call PIECE_RULES,html5,$(SVGS)))
# A chapter's piece or page waits (order only) for its outputs and figures and those it quotes.
needs = $(filter $(B)/out/ch$(1)_% $(B)/figures/ch$(1)_% $(foreach p,$(shell grep -o \
  'program="ch[0-9]*_[a-z_]*"' chapters/$(2).md | cut -d'"' -f2),$(B)/out/$(p).txt),$(OUTS) $(SVGS) $(PDFFIGS))
$(foreach c,$(CHAPTERS:chapters/%.md=%),$(eval $(B)/pieces/latex/$(c).json $(B)/pieces/html5/$(c).json \
  $(B)/html/$(c).html: | $(call needs,$(firstword $(subst -, ,$(c))),$(c))))
# A page per chapter; the index; preface, glossary and appendix; the whole book on one page.
$(B)/html/%.html: chapters/%.md $(HTML_DEPS) $(B)/labels.tsv | $(B)/markers.ok
	$(call say,HTML,$@) $(LITERATE) book/build/html.sh $(B) $@ chapter $<
$(B)/html/index.html: book/index.md $(HTML_DEPS) $(B)/contents.tsv
	$(call say,HTML,$@) $(LITERATE) book/build/html.sh $(B) $@ index $<
$(B)/html/preface.html $(B)/html/glossary.html $(B)/html/appendix.html: $(B)/html/%.html: book/%.md \
    $(HTML_DEPS) $(B)/labels.tsv $(TORCH_TABLE)
	$(call say,HTML,$@) $(LITERATE) book/build/html.sh $(B) $@ matter $<
# The appendix's table: written anew only when the reference tests change.
$(TORCH_TABLE): tests/reference/torch_table.py $(wildcard tests/reference/cases_*.py) \
    tests/reference/reflib.py
	$(call say,GEN,$@) mkdir -p $(B) && python3 tests/reference/torch_table.py > $@.tmp.$$$$ \
	  && mv $@.tmp.$$$$ $@ || { rm -f $@.tmp.$$$$; exit 1; }
$(B)/html/book.html: $(HTML_PIECES) $(HTML_DEPS) $(ASSEMBLE_DEPS) book/build/book_html.py | $(SVGS)
	$(call say,HTML,$@) book/build/html.sh $(B) $@ book $(HTML_PIECES)
# Snippet and solution markers pair up: an error names the C file and line.
CODE_SRCS := $(sort $(wildcard code/*.c code/lib/*/*.c code/lib/*/*.h))
$(B)/markers.ok: $(CODE_SRCS) book/check-markers.sh
	$(Q)book/check-markers.sh $(CODE_SRCS) | sed 's/^/error: /' >&2; mkdir -p $(@D); touch $@
# The offline search index (a record per section) and MiniSearch from npm, for file://.
$(B)/html/search-index.js: $(CHAPTER_HTML)
	$(call say,INDEX,$@) book/build/html.sh $(B) $@ search $(CHAPTER_HTML:$(B)/html/%.html=$(B)/deps/%.html.search)
$(B)/html/minisearch.js: book/package.json book/package-lock.json book/build/vendor.sh
	$(call say,NPM,$@) book/build/vendor.sh $(B) $@
# Each chapter's program with the modules it links, as a tarball, graded bodies stubbed.
$(B)/html/download/%.tar.gz: code/%.c $(B)/bin/% $(LIB_HDRS) book/build/tarball.sh \
    tests/grader/pack.py $(wildcard tests/assignments/ch*.tsv)
	$(call say,TAR,$@) book/build/tarball.sh $(B) $* $@

# Warn of snippet markers no chapter shows (or two do), and values no chapter quotes.
$(B)/snippet-report.txt: $(filter-out $(B)/html/index.html,$(HTML)) book/check-snippets.sh \
    book/check-dead.sh
	$(Q){ book/check-snippets.sh $(B) || true; book/check-dead.sh $(B) || true; } > $@.tmp.$$$$ \
	  && sed 's/^/warning: /' $@.tmp.$$$$ >&2; mv $@.tmp.$$$$ $@

# No time, speed or size in prose unless spliced; glossary terms linked at first use.
$(B)/units.ok: $(FRONT) $(CHAPTERS) $(BACK) book/check-units.sh book/check-glossary.sh
	$(Q)mkdir -p $(B) && book/check-units.sh $(FRONT) $(CHAPTERS) book/glossary.md \
	  && book/check-glossary.sh book/glossary.md $(CHAPTERS) && touch $@
html: $(B)/units.ok $(HTML) $(B)/html/book.html $(B)/html/search-index.js $(B)/html/minisearch.js $(DOWNLOADS) $(B)/snippet-report.txt  ## the HTML book only

# SOURCE_DATE_EPOCH dates everything made; the build stamp is rewritten when it changed.
export SOURCE_DATE_EPOCH ?= 1767225600
_ := $(shell SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) book/build/stamp.sh $(B) $(CC))

# The PDF: pandoc to LaTeX, XeLaTeX to a fix-point. The EPUB: MathML, SVG figures.
$(PDF): $(LATEX_PIECES) book/preamble.tex book/build/pdf.sh book/build/toc_seed.py $(BOOK_DEPS) \
    $(ASSEMBLE_DEPS) $(B)/figures/cover.pdf | $(PDFFIGS)
	$(call say,PDF,$@) book/build/pdf.sh $(B) $@ $(LATEX_PIECES)
$(EPUB): $(HTML_PIECES) book/build/epub.sh $(BOOK_DEPS) $(ASSEMBLE_DEPS) \
    $(B)/figures/cover.png | $(SVGS)
	$(call say,EPUB,$@) book/build/epub.sh $(B) $@ $(HTML_PIECES)
pdf: $(B)/units.ok $(PDF)  ## the PDF book only
epub: $(EPUB)  ## the EPUB book only
-include $(wildcard $(B)/deps/*.d)

# Tests: tests/GROUP.sh print TAP; tests/run.sh runs them side by side and counts.
check: test
test: all  ## build everything and run every test (alias: make check)
	$(Q)tests/run.sh $(B)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
SAN_UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/san/tests/%)
SAN_BINS := $(PROGRAMS:%=$(B)/san/bin/%)
# The tests' own code at -O0; the library they test is the book's -O3 build.
$(B)/tests/%: tests/unit/%.c $(LIB)
	$(call say,CC,$<) $(call cc,-O0 $(TEST_LD) $< $(LIB) -lcriterion $(LDLIBS))
$(B)/san/tests/%: tests/unit/%.c $(SAN_LIB)
	$(call say,CC-SAN,$<) $(call cc,$(SAN) -O0 $(TEST_LD) $< $(SAN_LIB) -lcriterion $(LDLIBS))

# The PyTorch reference driver: driver.c and a table of wrappers per fns_*.c.
REF_FNS := $(sort $(wildcard tests/reference/fns_*.c))
$(B)/tests/ref/ref_tables.h: book/build/ref-tables.sh $(REF_FNS)
	$(Q)book/build/ref-tables.sh $@ $(REF_FNS)
$(B)/tests/refdriver: tests/reference/driver.c $(REF_FNS) tests/reference/driver.h \
    $(B)/tests/ref/ref_tables.h $(LIB)
	$(call say,CC,$@) $(call cc,$(TEST_LD) -I$(B)/tests/ref -Itests/reference tests/reference/driver.c $(REF_FNS) $(LIB) $(LDLIBS))
refdriver: $(B)/tests/refdriver
unit-tests: $(UNIT_BINS)
sanitize: $(SAN_BINS) $(SAN_UNIT_BINS)
-include $(wildcard $(B)/obj/*.d $(B)/obj/lib/*/*.d $(B)/san/*.d $(B)/san/lib/*/*.d \
  $(B)/tests/*.d $(B)/san/tests/*.d)

# Archive members are named by file name alone: module names are unique across groups.
DUP_MODS := $(sort $(foreach m,$(notdir $(LIB_SRCS)),$(if $(filter-out 1,$(words $(filter %/$(m),$(LIB_SRCS)))),$(m))))
$(if $(DUP_MODS),$(error code/lib: module names must be unique across groups: $(DUP_MODS)))

# make bench measures (code/bench/README.md); never part of make test.
bench:  ## time attention and training against PyTorch; the build budget
	code/bench/bench.sh $(B)

# Course assignments (tests/grader/, tests/assignments/chNN.tsv): markers pair, or stop.
ASSIGN_DEPS := $(wildcard tests/assignments/ch*.tsv tests/grader/* tests/grader/calls/*.c) \
  book/build/packs.sh $(LIB_SRCS) $(LIB_HDRS) $(UNIT_SRCS) $(CHAPTERS)
solution-markers: $(B)/solution-markers.ok
$(B)/solution-markers.ok: tests/grader/pack.py $(LIB_SRCS) $(LIB_HDRS) $(wildcard code/*.c)
	$(call say,CHECK,solution markers) python3 tests/grader/pack.py check && mkdir -p $(@D) \
	  && touch $@
assignments: $(B)/assignments/.stamp  ## student packs: $(B)/assignments/chNN/, chNN.tar.gz
gradescope: $(B)/gradescope/.stamp  ## a Gradescope autograder per chapter: $(B)/gradescope/chNN.zip
$(B)/assignments/.stamp $(B)/gradescope/.stamp: $(B)/%/.stamp: $(ASSIGN_DEPS) | $(B)/solution-markers.ok
	$(call say,PACK,$(B)/$*/) book/build/packs.sh $(B) $*

# No graded body in the pages, EPUB, PDF, tarballs, or another chapter's pack.
leaks: all assignments  ## fail if a graded body is in the book, a download or another pack
	$(call say,CHECK,graded bodies in the outputs) python3 tests/grader/leak.py $(B)

# Every wrong version graded by the real judge, once (the instructor edition, tests).
wrongs: $(B)/wrongs.json  ## grade every wrong version (tests/grader/wrong/) into $(B)/wrongs.json
$(B)/wrongs.json: $(LIB) $(filter-out $(CHAPTERS),$(ASSIGN_DEPS)) $(wildcard tests/grader/wrong/*/*.c)
	$(call say,GRADE,wrong versions) python3 tests/grader/wrongs.py $(B) --record $@ > /dev/null
wrongs-table: $(B)/wrongs.json  ## the common mistakes and what each scores
	$(Q)printf 'chapter\ttask\twrong version\tscore\tmistake\n'; \
	  python3 tests/grader/wrongs.py --from $< --table | sort

# The instructor edition (never in the book or a pack): solutions, rubric, hints, answers.
instructors: $(B)/instructors/instructors.pdf  ## the instructor edition: $(B)/instructors/
$(B)/instructors/instructors.pdf: $(LIB) $(ASSIGN_DEPS) $(B)/wrongs.json \
    $(wildcard tests/assignments/notes/*.md tests/assignments/answers/*.c) $(CHAPTERS) \
    tests/grader/instructors.py book/build/instructors.sh
	$(call say,INSTR,$(B)/instructors/) book/build/instructors.sh $(B)

# The Debian 12 packages of book/build/packages.txt, the test locale, Node.js (idempotent).
deps:  ## install the Debian packages the project needs (as root)
	@book/build/deps.sh
clean:  ## remove $(B)/
	rm -rf $(B)
