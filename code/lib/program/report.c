// report.c -- sections on stdout, data files and values for the book.
#define _POSIX_C_SOURCE 200809L
#include "program/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

// Standard input and error opened on /dev/null if they are closed, so that no
// file this program opens takes their descriptor. Returns 0, or -1 if standard
// output itself is closed.
static int standard_descriptors(const char *program) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        if (fd == 1) {
            fprintf(stderr, "%s: standard output is closed: nowhere to print the "
                    "report\n", program);
            return -1;
        }
        int got = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (got != fd && got >= 0) close(got);
    }
    return 0;
}

// Remove the files the previous run listed in DIR/.report-files (plain names
// only; anything else in DIR is left alone).
static void remove_previous(const char *dir) {
    char path[4096], line[REPORT_NAME_MAX + 2];
    snprintf(path, sizeof path, "%s/%s", dir, REPORT_MANIFEST);
    FILE *m = fopen(path, "r");
    if (!m) return;
    while (fgets(line, sizeof line, m)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || line[0] == '.' || strchr(line, '/')) continue;
        char old[4096];
        if (snprintf(old, sizeof old, "%s/%s", dir, line) < (int)sizeof old)
            unlink(old);
    }
    fclose(m);
}

int report_open(report_t *r, const char *program, const char *dir) {
    memset(r, 0, sizeof *r);
    r->program = program;
    if (standard_descriptors(program) != 0) return -1;
    if (!dir) return 0;
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: --data: cannot create directory '%s': %s\n", program, dir,
                strerror(errno));
        return -1;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "%s: --data: '%s' is not a directory\n", program, dir);
        return -1;
    }
    remove_previous(dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, REPORT_MANIFEST);
    r->manifest = fopen(path, "w");
    if (!r->manifest) {
        fprintf(stderr, "%s: --data: cannot write into '%s': %s\n", program, dir,
                strerror(errno));
        return -1;
    }
    r->dir = dir;
    r->values = report_data(r, "values.tsv");
    if (!r->values) {
        fclose(r->manifest);
        r->manifest = NULL;
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
    fprintf(r->values, "%s\t%s\n", key, text);   // errors: seen by report_data_close
}

FILE *report_data(report_t *r, const char *name) {
    if (!r->dir) return NULL;
    char path[4096];
    if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') ||
        strlen(name) >= REPORT_NAME_MAX || r->n_open == REPORT_MAX_FILES) {
        fprintf(stderr, "%s: cannot write '%s/%s': %s\n", r->program, r->dir, name,
                r->n_open == REPORT_MAX_FILES ? "too many files open"
                                              : "not a plain file name");
        r->failed = 1;
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", r->program, path,
                strerror(errno));
        r->failed = 1;
        return NULL;
    }
    if (r->manifest) {   // listed before anything is written into it
        fprintf(r->manifest, "%s\n", name);
        fflush(r->manifest);
    }
    r->open_files[r->n_open] = f;
    snprintf(r->open_names[r->n_open], REPORT_NAME_MAX, "%s", name);
    r->n_open++;
    return f;
}

void report_data_close(report_t *r, FILE *f) {
    if (!f) return;
    const char *name = "?";
    for (int i = 0; i < r->n_open; i++)
        if (r->open_files[i] == f) {
            name = r->open_names[i];
            r->n_open--;
            r->open_files[i] = r->open_files[r->n_open];
            memcpy(r->open_names[i], r->open_names[r->n_open], REPORT_NAME_MAX);
            break;
        }
    int bad = ferror(f);
    errno = 0;
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        fprintf(stderr, "%s: error writing '%s/%s': %s\n", r->program,
                r->dir ? r->dir : ".", name, errno ? strerror(errno) : "write error");
        r->failed = 1;
    }
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
    if (r->manifest) {
        if (fclose(r->manifest) != 0 && !r->failed) {
            fprintf(stderr, "%s: error writing '%s/%s': %s\n", r->program, r->dir,
                    REPORT_MANIFEST, strerror(errno));
            r->failed = 1;
        }
        r->manifest = NULL;
    }
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && r->failed != 2) {
        fprintf(stderr, "%s: error writing to standard output: %s\n", r->program,
                errno ? strerror(errno) : "write error");
        r->failed = 2;   // said once
    }
    int rc = r->failed ? -1 : 0;
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
