// test_report.c -- checks, values, data files and write failures of report.c.
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "program/report.h"

static const char *captured(FILE *f, char *buf, size_t size) {
    fflush(NULL);
    rewind(f);
    size_t got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
    return buf;
}

static char *slurp(const char *path, char *buf, size_t size) {
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot read %s", path);
    size_t got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static char *tmpdir(char *buf) {
    strcpy(buf, "/tmp/test_report.XXXXXX");
    cr_assert_not_null(mkdtemp(buf));
    return buf;
}

static void init_both(void) {
    cr_redirect_stdout();
    cr_redirect_stderr();
}

Test(report, check_passes_and_close_returns_0, .init = init_both) {
    report_t r;
    cr_assert_eq(report_open(&r, "prog", NULL), 0);
    cr_assert_eq(report_check(&r, "small", 2.4e-7, 1e-5), 1);
    cr_assert_eq(report_check(&r, "exact", 0.0, 0.0), 1);
    cr_assert_eq(report_check(&r, "negative within", -3e-6, 1e-5), 1);
    cr_assert_eq(report_check_true(&r, "holds", 1), 1);
    cr_assert_eq(report_close(&r), 0);
    char buf[1024];
    cr_assert_str_eq(captured(cr_get_redirected_stdout(), buf, sizeof buf),
                     "check: small: 2.4e-07 <= 1e-05 ok\n"
                     "check: exact: 0 == 0 ok\n"
                     "check: negative within: -3.0e-06 <= 1e-05 ok\n"
                     "check: holds: ok\n");
    cr_assert_str_eq(captured(cr_get_redirected_stderr(), buf, sizeof buf), "");
}

Test(report, a_failed_check_fails_close, .init = init_both) {
    report_t r;
    report_open(&r, "prog", NULL);
    cr_assert_eq(report_check(&r, "too big", 2e-3, 1e-5), 0);
    cr_assert_eq(report_check(&r, "fine", 0.0, 1e-5), 1);
    cr_assert_eq(report_close(&r), -1);
    cr_assert_eq(report_close(&r), -1, "a second close says the same");
    char buf[1024];
    cr_assert_str_eq(captured(cr_get_redirected_stdout(), buf, sizeof buf),
                     "check: too big: 2.0e-03 > 1e-05 FAILED\n"
                     "check: fine: 0.0e+00 <= 1e-05 ok\n");
    cr_assert(strstr(captured(cr_get_redirected_stderr(), buf, sizeof buf),
                     "prog: check failed: too big: 2.0e-03 > 1e-05 \nprog: 1 of 2 "
                     "checks failed\n"),
              "%s", buf);
}

Test(report, nan_and_inf_never_pass, .init = init_both) {
    report_t r;
    report_open(&r, "prog", NULL);
    cr_assert_eq(report_check(&r, "nan", NAN, 1e-5), 0);
    cr_assert_eq(report_check(&r, "nan exact", NAN, 0.0), 0);
    cr_assert_eq(report_check(&r, "inf", INFINITY, 1e-5), 0);
    cr_assert_eq(report_check(&r, "tolerance nan", 0.0, NAN), 0);
    cr_assert_eq(report_check_true(&r, "false", 0), 0);
    cr_assert_eq(r.checks, 5);
    cr_assert_eq(r.checks_failed, 5);
    cr_assert_eq(report_close(&r), -1);
}

Test(report, values_and_data_files, .init = init_both) {
    char dir[64], path[128], buf[1024];
    tmpdir(dir);
    report_t r;
    cr_assert_eq(report_open(&r, "prog", dir), 0);
    report_value(&r, "x", "%.4f", 0.12345);
    report_value(&r, "negzero", "%.2f", -0.001);
    report_text(&r, "shape", "(8, 64)");
    FILE *f = report_data(&r, "a.dat");
    cr_assert_not_null(f);
    fprintf(f, "1 2\n");
    report_data_close(&r, f);
    report_data_close(&r, NULL);
    cr_assert_eq(report_close(&r), 0);
    snprintf(path, sizeof path, "%s/values.tsv", dir);
    cr_assert_str_eq(slurp(path, buf, sizeof buf),
                     "x\t0.1235\nnegzero\t0.00\nshape\t(8, 64)\n");
    snprintf(path, sizeof path, "%s/a.dat", dir);
    cr_assert_str_eq(slurp(path, buf, sizeof buf), "1 2\n");
    snprintf(path, sizeof path, "%s/%s", dir, REPORT_MANIFEST);
    cr_assert_str_eq(slurp(path, buf, sizeof buf), "values.tsv\na.dat\n");
}

Test(report, without_data_dir_nothing_is_written, .init = init_both) {
    report_t r;
    report_open(&r, "prog", NULL);
    report_value(&r, "x", "%.1f", 1.0);
    cr_assert_null(report_data(&r, "a.dat"));
    cr_assert_eq(report_close(&r), 0);
}

Test(report, a_reused_dir_loses_the_previous_runs_files_only, .init = init_both) {
    char dir[64], path[160];
    tmpdir(dir);
    report_t r;
    report_open(&r, "prog", dir);
    report_data_close(&r, report_data(&r, "old.dat"));
    cr_assert_eq(report_close(&r), 0);
    snprintf(path, sizeof path, "%s/mine.txt", dir);
    fclose(fopen(path, "w"));
    report_open(&r, "prog", dir);
    cr_assert_eq(report_close(&r), 0);
    snprintf(path, sizeof path, "%s/old.dat", dir);
    cr_assert_neq(access(path, F_OK), 0, "old.dat survived");
    snprintf(path, sizeof path, "%s/mine.txt", dir);
    cr_assert_eq(access(path, F_OK), 0, "a file the program did not write was removed");
}

Test(report, unusable_dirs_are_refused_with_a_reason, .init = init_both) {
    char dir[64], file[96], sub[128], buf[1024];
    tmpdir(dir);
    snprintf(file, sizeof file, "%s/plain", dir);
    fclose(fopen(file, "w"));
    snprintf(sub, sizeof sub, "%s/plain/sub", dir);
    report_t r;
    cr_assert_eq(report_open(&r, "prog", file), -1);
    cr_assert_eq(report_open(&r, "prog", sub), -1);
    captured(cr_get_redirected_stderr(), buf, sizeof buf);
    cr_assert(strstr(buf, "' is not a directory\n"), "%s", buf);
    cr_assert(strstr(buf, "plain/sub': Not a directory\n"), "%s", buf);
}

Test(report, bad_data_names_are_refused, .init = init_both) {
    char dir[64];
    tmpdir(dir);
    report_t r;
    report_open(&r, "prog", dir);
    cr_assert_null(report_data(&r, "../escape.dat"));
    cr_assert_null(report_data(&r, ".hidden"));
    cr_assert_eq(report_close(&r), -1);
}

Test(report, a_failed_write_names_the_file, .init = init_both) {
    char dir[64], path[128], buf[1024];
    tmpdir(dir);
    snprintf(path, sizeof path, "%s/full.dat", dir);
    cr_assert_eq(symlink("/dev/full", path), 0);
    report_t r;
    cr_assert_eq(report_open(&r, "prog", dir), 0);
    FILE *f = report_data(&r, "full.dat");
    cr_assert_not_null(f);
    fprintf(f, "some data\n");
    report_data_close(&r, f);
    cr_assert_eq(report_close(&r), -1);
    captured(cr_get_redirected_stderr(), buf, sizeof buf);
    char want[160];
    snprintf(want, sizeof want,
             "prog: error writing '%s/full.dat': No space left on device\n", dir);
    cr_assert_str_eq(buf, want);
}

Test(report, fmt_fixed_never_prints_negative_zero) {
    char buf[32];
    cr_assert_str_eq(report_fmt_fixed(buf, sizeof buf, -0.0001, 3), "0.000");
    cr_assert_str_eq(report_fmt_fixed(buf, sizeof buf, -0.0006, 3), "-0.001");
    cr_assert_str_eq(report_fmt_fixed(buf, sizeof buf, 2.5, 1), "2.5");
}

Test(report, sections_and_matrices, .init = init_both) {
    report_t r;
    report_open(&r, "prog", NULL);
    report_section(&r, "one");
    report_section(&r, "two");
    const float a[4] = {1.0f, -0.0001f, 0.5f, 2.0f};
    const char *rows[] = {"a", "bb"}, *cols[] = {"x", "y"};
    report_print_matrix(a, 2, 2, 7, 3, rows, cols);
    report_print_matrix(a, 0, 2, 7, 3, NULL, NULL);
    cr_assert_eq(report_close(&r), 0);
    char buf[1024];
    cr_assert_str_eq(captured(cr_get_redirected_stdout(), buf, sizeof buf),
                     "== one ==\n\n== two ==\n"
                     "         x      y\n"
                     "a    1.000  0.000\n"
                     "bb   0.500  2.000\n");
}
