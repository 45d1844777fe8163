# Makefile of an assignment pack (generated from tests/grader/pack.mk in the book).
#   make          build the library and the visible tests (warnings are errors)
#   make test     run the visible tests: every Criterion test in tests/unit/
#   make grade    grade your work as the autograder does (visible tests only):
#                 a score table here and results.json
#   make clean    remove build/ and results.*
CC      ?= cc
CFLAGS  := -std=c11 -O2 -ffp-contract=off -g -Wall -Wextra -Wpedantic -Wshadow -Werror
CPPFLAGS := -Icode/lib
LDLIBS  := -lm

LIB_SRCS := $(sort $(wildcard code/lib/*/*.c))
LIB_OBJS := $(LIB_SRCS:code/%.c=build/obj/%.o)
TESTS    := $(patsubst tests/unit/%.c,build/%,$(sort $(wildcard tests/unit/test_*.c)))

.PHONY: all test grade clean
all: $(TESTS)

build/obj/%.o: code/%.c $(wildcard code/lib/*/*.h)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

build/libpack.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# Hidden tests were cut out of the test files, so a helper may go unused.
build/test_%: tests/unit/test_%.c build/libpack.a
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-unused-function $< build/libpack.a -lcriterion $(LDLIBS) -o $@

test: all
	@status=0; for t in $(TESTS); do echo "== $$t"; ./$$t --color=never || status=1; done; exit $$status

grade:
	@bash grader/grade.sh

clean:
	rm -rf build results.json results.tsv
