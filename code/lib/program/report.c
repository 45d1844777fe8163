// report.c -- sections on stdout, data files and values for the book.
#define _POSIX_C_SOURCE 200809L
#include "program/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int report_open(report_t *r, const char *program, const char *dir) {
    memset(r, 0, sizeof *r);
    r->program = program;
    r->dir = dir;
    if (!dir) return 0;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: --data: cannot create directory '%s': %s\n", program, dir,
                strerror(errno));
        return -1;
    }
    r->values = report_data(r, "values.tsv");
    if (!r->values) {
        fprintf(stderr, "%s: --data: cannot write into '%s'\n", program, dir);
        return -1;
    }
    return 0;
}

void report_section(report_t *r, const char *title) {
    if (r->sections++ > 0) printf("\n");
    printf("== %s ==\n", title);
}

void report_value(report_t *r, const char *key, const char *fmt, double v) {
    if (!r->values) return;
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    if (strncmp(buf, "-0", 2) == 0 && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));   // "-0.00" -> "0.00"
    report_text(r, key, buf);
}

void report_text(report_t *r, const char *key, const char *text) {
    if (!r->values) return;
    if (fprintf(r->values, "%s\t%s\n", key, text) < 0) r->failed = 1;
}

FILE *report_data(report_t *r, const char *name) {
    if (!r->dir) return NULL;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", r->dir, name) >= (int)sizeof path) {
        r->failed = 1;
        return NULL;
    }
    FILE *f = fopen(path, "w");
    if (!f) r->failed = 1;
    return f;
}

void report_data_close(report_t *r, FILE *f) {
    if (!f) return;
    if (ferror(f)) r->failed = 1;
    if (fclose(f) != 0) r->failed = 1;
}

static int check_line(report_t *r, const char *label, int holds, const char *detail) {
    r->checks++;
    printf("check: %s: %s%s\n", label, detail, holds ? "ok" : "FAILED");
    if (!holds) {
        r->checks_failed++;
        fprintf(stderr, "%s: check failed: %s: %s\n", r->program, label, detail);
    }
    return holds;
}

int report_check(report_t *r, const char *label, double value, double tolerance) {
    int holds = fabs(value) <= tolerance;   // false for NaN
    char detail[96];
    if (tolerance == 0.0)
        snprintf(detail, sizeof detail, "%.3g == 0 ", value);
    else
        snprintf(detail, sizeof detail, "%.1e %s %.0e ", value, holds ? "<=" : ">",
                 tolerance);
    return check_line(r, label, holds, detail);
}

int report_check_true(report_t *r, const char *label, int holds) {
    return check_line(r, label, holds != 0, "");
}

int report_close(report_t *r) {
    if (r->values) report_data_close(r, r->values);
    r->values = NULL;
    if (fflush(stdout) != 0) r->failed = 1;
    int rc = 0;
    if (r->failed) {
        fprintf(stderr, "%s: failed to write data into '%s'\n", r->program,
                r->dir ? r->dir : "(stdout)");
        rc = -1;
    }
    if (r->checks_failed) {
        fprintf(stderr, "%s: %d of %d checks failed\n", r->program, r->checks_failed,
                r->checks);
        rc = -1;
    }
    return rc;
}

const char *report_fmt_fixed(char *buf, int size, double v, int prec) {
    snprintf(buf, (size_t)size, "%.*f", prec, v);
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));
    return buf;
}

void report_print_matrix(const float *a, int n, int m, int width, int prec,
                  const char *const *row_labels, const char *const *col_labels) {
    char buf[64];
    int lw = 0;
    if (row_labels)
        for (int i = 0; i < n; i++)
            if ((int)strlen(row_labels[i]) > lw) lw = (int)strlen(row_labels[i]);
    if (col_labels) {
        if (row_labels) printf("%*s ", lw, "");
        for (int j = 0; j < m; j++) printf("%*s", width, col_labels[j]);
        printf("\n");
    }
    for (int i = 0; i < n; i++) {
        if (row_labels) printf("%-*s ", lw, row_labels[i]);
        for (int j = 0; j < m; j++)
            printf("%*s", width, report_fmt_fixed(buf, sizeof buf, a[i * m + j], prec));
        printf("\n");
    }
}

void report_write_matrix(FILE *f, const float *a, int n, int m,
                  const char *const *row_labels, const char *const *col_labels) {
    if (!f) return;
    if (row_labels && col_labels) {
        fprintf(f, "x");
        for (int j = 0; j < m; j++) fprintf(f, " \"%s\"", col_labels[j]);
        fprintf(f, "\n");
    }
    for (int i = 0; i < n; i++) {
        if (row_labels && col_labels) fprintf(f, "\"%s\" ", row_labels[i]);
        for (int j = 0; j < m; j++) fprintf(f, "%s%.6g", j ? " " : "", a[i * m + j]);
        fprintf(f, "\n");
    }
}
