// test_cli.c -- the shared command line: values, ranges, refusals, --help.
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <string.h>

#include "program/cli.h"

static long g_len;
static double g_temp;
static const char *g_text;

// parse(args...) with a fresh cli_t: one integer, one real and one text option.
static int parse_argv(cli_t *cli, int argc, char **argv) {
    static const cli_opt_t opts[] = {
        {.name = "--seq-len", .meta = "N", .help = "sequence length", .kind = CLI_INT,
         .ival = &g_len, .min = 1, .max = 512},
        {.name = "--temp", .meta = "T", .help = "temperature", .kind = CLI_REAL,
         .rval = &g_temp, .min = -2, .max = 100},
        {.name = "--prompt", .meta = "TEXT", .help = "prompt", .kind = CLI_TEXT,
         .sval = &g_text, .min = 1, .max = 5},
    };
    g_len = 8;
    g_temp = 1.0;
    g_text = "%\n\"";
    *cli = (cli_t){.program = "prog", .summary = "a test", .opts = opts,
                   .n_opts = 3, .seed = 42};
    return cli_parse(cli, argc, argv);
}
#define PARSE(cli, ...)                                                        \
    parse_argv(cli, (int)(sizeof((char *[]){"prog", __VA_ARGS__}) / sizeof(char *)), \
               (char *[]){"prog", __VA_ARGS__})

// The text written to a redirected stream so far.
static const char *captured(FILE *f, char *buf, size_t size) {
    fflush(NULL);
    rewind(f);
    size_t got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
    return buf;
}

Test(cli, defaults_without_arguments) {
    cli_t cli;
    char *argv[] = {"prog"};
    cr_assert_eq(parse_argv(&cli, 1, argv), CLI_RUN);
    cr_assert_eq(cli.seed, 42);
    cr_assert_null(cli.data_dir);
    cr_assert_eq(g_len, 8);
    cr_assert_str_eq(g_text, "%\n\"");
}

Test(cli, values_in_both_spellings) {
    cli_t cli;
    cr_assert_eq(
            PARSE(&cli, "--seed", "7", "--seq-len=12", "--temp", "0.5", "--data", "d"),
            CLI_RUN);
    cr_assert_eq(cli.seed, 7);
    cr_assert_eq(g_len, 12);
    cr_assert_float_eq(g_temp, 0.5, 0);
    cr_assert_str_eq(cli.data_dir, "d");
    cr_assert_eq(PARSE(&cli, "--seed=4294967295", "--temp=1e-3", "--temp=-1.5"),
                 CLI_RUN);
    cr_assert_eq(cli.seed, 4294967295u);
    cr_assert_float_eq(g_temp, -1.5, 0);
    cr_assert_eq(PARSE(&cli, "--prompt", "-- a"), CLI_RUN);   // any text, "--" too
    cr_assert_str_eq(g_text, "-- a");
    cr_assert_eq(PARSE(&cli, "--prompt=a=b", "--prompt", "12345"), CLI_RUN);
    cr_assert_str_eq(g_text, "12345");
}

Test(cli, a_final_double_dash_ends_the_options) {
    cli_t cli;
    cr_assert_eq(PARSE(&cli, "--seed", "3", "--"), CLI_RUN);
    cr_assert_eq(cli.seed, 3);
}

Test(cli, refusals, .init = cr_redirect_stderr) {
    cli_t cli;
    const char *bad[][2] = {
        {"--seed", " 5"}, {"--seed", "5 "}, {"--seed", "+5"}, {"--seed", "-0"},
        {"--seed", "0x10"}, {"--seed", "1e3"}, {"--seed", ""}, {"--seed", "-1"},
        {"--seed", "4294967296"}, {"--seed", "99999999999999999999999"},
        {"--seq-len", "0"}, {"--seq-len", "513"}, {"--seq-len", "2.5"},
        {"--temp", "inf"}, {"--temp", "nan"}, {"--temp", "-0"}, {"--temp", "-0.0"},
        {"--temp", "+1"}, {"--temp", "1e999"}, {"--temp", "101"}, {"--temp", "0x1p3"},
        {"--data", ""}, {"--data", "--seed"}, {"--prompt", ""}, {"--prompt", "123456"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(PARSE(&cli, (char *)bad[i][0], (char *)bad[i][1]), CLI_ERROR,
                     "%s '%s' accepted", bad[i][0], bad[i][1]);
    cr_assert_eq(PARSE(&cli, "--seed"), CLI_ERROR);
    cr_assert_eq(PARSE(&cli, "--prompt"), CLI_ERROR);
    cr_assert_eq(PARSE(&cli, "--bogus"), CLI_ERROR);
    cr_assert_eq(PARSE(&cli, "extra"), CLI_ERROR);
    cr_assert_eq(PARSE(&cli, "--", "extra"), CLI_ERROR);
}

Test(cli, seed_range_is_printed_in_full, .init = cr_redirect_stderr) {
    cli_t cli;
    cr_assert_eq(PARSE(&cli, "--seed", "4294967296"), CLI_ERROR);
    char buf[512];
    cr_assert_str_eq(captured(cr_get_redirected_stderr(), buf, sizeof buf),
                     "prog: --seed: not in 0..4294967295, got '4294967296'\n");
}

Test(cli, one_line_naming_the_cause, .init = cr_redirect_stderr) {
    cli_t cli;
    PARSE(&cli, "--seed", "+5");
    PARSE(&cli, "--", "x");
    PARSE(&cli, "x");
    PARSE(&cli, "--temp", "nan");
    PARSE(&cli, "--prompt", "123456");
    char buf[1024];
    cr_assert_str_eq(
            captured(cr_get_redirected_stderr(), buf, sizeof buf),
            "prog: --seed: expected a whole number in 0..4294967295, got '+5'\n"
            "prog: unexpected argument 'x' after '--' (this program takes "
            "options only)\n"
            "prog: unexpected argument 'x' (options start with --; try --help)\n"
            "prog: --temp: expected a number in -2..100, got 'nan'\n"
            "prog: --prompt: expected text of 1..5 bytes, got 6\n");
}

Test(cli, help_lists_every_option_with_its_range, .init = cr_redirect_stdout) {
    cli_t cli;
    cr_assert_eq(PARSE(&cli, "--seq-len", "3", "--help"), CLI_DONE);
    char buf[2048];
    const char *out = captured(cr_get_redirected_stdout(), buf, sizeof buf);
    cr_assert(strstr(out, "--seed N           random seed (0..4294967295, default 42)"),
              "%s", out);
    cr_assert(strstr(out, "--seq-len N        sequence length (1..512, default 3)"),
              "%s", out);
    cr_assert(strstr(out, "--temp T           temperature (-2..100, default 1)"), "%s",
              out);
    cr_assert(strstr(out, "--prompt TEXT      prompt (1..5 bytes, "
                          "default \"%\\n\\\"\")"), "%s", out);
    cr_assert(strstr(out, "--data DIR"), "%s", out);
}
