// test_program.c -- program_start: parse, then open the report.
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>

#include "program/program.h"

static cli_t make_cli(long *n) {
    static cli_opt_t opts[1];
    opts[0] = (cli_opt_t){.name = "--n", .meta = "N", .help = "a number",
                          .kind = CLI_INT, .ival = n, .min = 1, .max = 10};
    return (cli_t){.program = "test", .summary = "a test", .opts = opts, .n_opts = 1,
                   .seed = 5};
}

Test(program, goes_on_with_good_options) {
    long n = 3;
    cli_t cli = make_cli(&n);
    char *argv[] = {"test", "--n", "7", "--seed", "9", NULL};
    report_t r;
    cr_assert_eq(program_start(&cli, &r, 5, argv), -1);
    cr_assert_eq(n, 7);
    cr_assert_eq(cli.seed, 9);
    cr_assert_eq(report_close(&r), 0);
}

Test(program, help_exits_0, .init = cr_redirect_stdout) {
    long n = 3;
    cli_t cli = make_cli(&n);
    char *argv[] = {"test", "--help", NULL};
    report_t r;
    cr_assert_eq(program_start(&cli, &r, 2, argv), 0);
}

// A value out of range, and a --data directory that cannot be created.
Test(program, bad_input_exits_2, .init = cr_redirect_stderr) {
    char *cases[2][2] = {{"--n", "11"}, {"--data", "/nonexistent/dir/x"}};
    for (int c = 0; c < 2; c++) {
        long n = 3;
        cli_t cli = make_cli(&n);
        char *argv[] = {"test", cases[c][0], cases[c][1], NULL};
        report_t r;
        cr_assert_eq(program_start(&cli, &r, 3, argv), 2, "case %d", c);
    }
}
