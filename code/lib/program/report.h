// report.h -- what a chapter program prints and writes.
//
// stdout is split into sections headed "== name ==" so the book can quote one
// section at a time. With --data DIR a program also writes figure data files
// into DIR and the numbers the prose quotes into DIR/values.tsv.
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

enum { REPORT_MAX_FILES = 64, REPORT_NAME_MAX = 96 };

typedef struct {
    const char *program;   // for messages on stderr
    const char *dir;       // NULL: print only, write nothing
    FILE *values;          // DIR/values.tsv while open
    FILE *manifest;        // DIR/.report-files: the names this run wrote
    int failed;            // set once any write fails (a line on stderr names it)
    int sections;          // sections printed so far
    int checks, checks_failed;
    int n_open;            // data files open now, for naming them in errors
    FILE *open_files[REPORT_MAX_FILES];
    char open_names[REPORT_MAX_FILES][REPORT_NAME_MAX];
} report_t;

// The name of the file in DIR that lists what the last run wrote there.
#define REPORT_MANIFEST ".report-files"

// Start a report; dir may be NULL. Returns 0, or -1 with one line on stderr
// naming the cause (with the system's reason, strerror) when:
//   - standard output is closed (the report would end up in a data file);
//   - dir cannot be created, is not a directory, or cannot be written.
// Standard input and error, if closed, are opened on /dev/null first, so no
// data file can take their place. Creates dir if needed. A reused dir is
// cleaned of the files the previous run wrote (listed in DIR/.report-files;
// nothing else is removed), so no stale file stays beside the new ones.
int report_open(report_t *r, const char *program, const char *dir);

// Print the header of a new stdout section: "== title ==".
void report_section(report_t *r, const char *title);

// Record a number for the prose: "key<TAB>formatted value" in values.tsv.
// fmt is a printf format for one double, e.g. "%.4f".
void report_value(report_t *r, const char *key, const char *fmt, double v);

// Record a text value (e.g. a word or a shape) for the prose.
void report_text(report_t *r, const char *key, const char *text);

// Open DIR/name for writing figure data; NULL when no --data was given (or
// on failure, which also prints "cannot write 'DIR/name': reason" on stderr
// and sets r->failed). name is a plain file name (no '/', not starting '.').
FILE *report_data(report_t *r, const char *name);

// Close a file from report_data(); a write error prints one line naming the
// file and sets r->failed. f may be NULL.
void report_data_close(report_t *r, FILE *f);

// --- checks ---------------------------------------------------------------
// Every claim a program prints as evidence ("fused == per-head loop", "rows
// sum to 1") goes through report_check, so that a claim that does not hold
// fails the program, and with it the build.

// Check |value| <= tolerance (NaN fails) and print one line:
//   "check: LABEL: 2.4e-07 <= 1e-05 ok"   or   "... > 1e-05 FAILED"
// (tolerance 0: "check: LABEL: 0 == 0 ok"). A failed check also prints one line
// on stderr and makes report_close() fail. Returns 1 if the check holds.
int report_check(report_t *r, const char *label, double value, double tolerance);

// A yes/no claim: "check: LABEL: ok" or "check: LABEL: FAILED".
int report_check_true(report_t *r, const char *label, int holds);

// Finish: close values.tsv and flush stdout. Returns 0; or -1 if any write
// failed (each failure has named its file on stderr: a data file, or
// "standard output") or any check failed ("N of M checks failed" on stderr).
// Idempotent: a second call returns the same. A program ends with
//   return report_close(&r) == 0 ? 0 : 1;
int report_close(report_t *r);

// --- printing helpers -----------------------------------------------------

// Print a (n, m) matrix, one row per line, "%*.*f" with the given width and
// precision. row_labels / col_labels may be NULL.
void report_print_matrix(const float *a, int n, int m, int width, int prec,
                  const char *const *row_labels, const char *const *col_labels);

// Write a (n, m) matrix for gnuplot's "matrix" format: n lines of m numbers.
// With labels, writes gnuplot's "matrix rowheaders columnheaders" layout.
void report_write_matrix(FILE *f, const float *a, int n, int m,
                  const char *const *row_labels, const char *const *col_labels);

// Format v with prec decimals into buf, printing -0.000 as 0.000.
const char *report_fmt_fixed(char *buf, int size, double v, int prec);

#endif
