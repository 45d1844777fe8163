// report.h -- what a chapter program prints and writes.
//
// stdout is split into sections headed "== name ==" so the book can quote one
// section at a time. With --data DIR a program also writes figure data files
// into DIR and the numbers the prose quotes into DIR/values.tsv.
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

typedef struct {
    const char *dir;   // NULL: print only, write nothing
    FILE *values;      // DIR/values.tsv while open
    int failed;        // set once any write fails
    int sections;      // sections printed so far
} report_t;

// Start a report; dir may be NULL. Creates dir if needed. Returns 0, or -1
// with one line on stderr if dir cannot be created or written.
int report_open(report_t *r, const char *program, const char *dir);

// Print the header of a new stdout section: "== title ==".
void report_section(report_t *r, const char *title);

// Record a number for the prose: "key<TAB>formatted value" in values.tsv.
// fmt is a printf format for one double, e.g. "%.4f".
void report_value(report_t *r, const char *key, const char *fmt, double v);

// Record a text value (e.g. a word or a shape) for the prose.
void report_text(report_t *r, const char *key, const char *text);

// Open DIR/name for writing figure data; NULL when no --data was given (or
// on failure, which also sets r->failed).
FILE *report_data(report_t *r, const char *name);

// Close a file from report_data(), noting any write error.
void report_data_close(report_t *r, FILE *f);

// Finish: close values.tsv. Returns 0, or -1 with one line on stderr if any
// write failed.
int report_close(report_t *r, const char *program);

// --- printing helpers -----------------------------------------------------

// Print a (n, m) matrix, one row per line, "%*.*f" with the given width and
// precision. row_labels / col_labels may be NULL.
void print_matrix(const float *a, int n, int m, int width, int prec,
                  const char *const *row_labels, const char *const *col_labels);

// Write a (n, m) matrix for gnuplot's "matrix" format: n lines of m numbers.
// With labels, writes gnuplot's "matrix rowheaders columnheaders" layout.
void write_matrix(FILE *f, const float *a, int n, int m,
                  const char *const *row_labels, const char *const *col_labels);

// Format v with prec decimals into buf, printing -0.000 as 0.000.
const char *fmt_fixed(char *buf, int size, double v, int prec);

#endif
