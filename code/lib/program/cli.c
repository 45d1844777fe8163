// cli.c -- strict option parsing with one-line errors.
#include "program/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// A range for messages: whole numbers printed in full (0..4294967295, never
// 4.29497e+09), real ones with %g.
static void fmt_range(char *buf, size_t size, cli_kind_t kind, double min, double max) {
    if (kind == CLI_INT || kind == CLI_TEXT)
        snprintf(buf, size, "%.0f..%.0f", min, max);
    else
        snprintf(buf, size, "%g..%g", min, max);
}

// Text as a C string literal would write it ("%\n"), for --help's defaults.
static void print_quoted(const char *t) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)t; *p; p++) {
        if (*p == '\n') fputs("\\n", stdout);
        else if (*p == '\t') fputs("\\t", stdout);
        else if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 32 || *p >= 127) printf("\\x%02x", *p);
        else putchar(*p);
    }
    putchar('"');
}

static void usage(const cli_t *cli) {
    char range[64];
    printf("usage: %s [options]\n%s\n\noptions:\n", cli->program, cli->summary);
    fmt_range(range, sizeof range, CLI_INT, 0, CLI_SEED_MAX);
    printf("  %-18s %s (%s, default %llu)\n", "--seed N", "random seed", range,
           (unsigned long long)cli->seed);
    printf("  %-18s %s\n", "--data DIR", "write figure data and values to DIR");
    for (int i = 0; i < cli->n_opts; i++) {
        const cli_opt_t *o = &cli->opts[i];
        char flag[64];
        snprintf(flag, sizeof flag, "%s %s", o->name,
                 o->kind == CLI_FLAG ? "" : o->meta);
        fmt_range(range, sizeof range, o->kind, o->min, o->max);
        if (o->kind == CLI_FLAG)
            printf("  %-18s %s\n", flag, o->help);
        else if (o->kind == CLI_TEXT) {
            printf("  %-18s %s (%s bytes, default ", flag, o->help, range);
            print_quoted(*o->sval);
            fputs(")\n", stdout);
        }
        else if (o->kind == CLI_INT)
            printf("  %-18s %s (%s, default %ld)\n", flag, o->help, range, *o->ival);
        else
            printf("  %-18s %s (%s, default %g)\n", flag, o->help, range, *o->rval);
    }
    printf("  %-18s %s\n", "--help", "show this help and exit");
}

// Numbers are written plainly: an optional '-', digits, and for real options
// an optional fraction and exponent ("0.5", "-2", "1e-3"). Refused: spaces,
// a leading '+', hexadecimal, "inf", "nan", and a negative zero ("-0", "-0.0").
static int plain_number(const char *t, cli_kind_t kind) {
    const char *p = t;
    if (*p == '-') p++;
    int digits = 0, nonzero = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++) nonzero |= *p != '0';
    if (kind == CLI_REAL && *p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, digits++) nonzero |= *p != '0';
    }
    if (digits == 0) return 0;
    if (kind == CLI_REAL && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '-' || *p == '+') p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p != '\0') return 0;
    if (t[0] == '-' && !nonzero) return 0;   // "-0": a sign on nothing
    return 1;
}

// Parse text as a number of the given kind within [min, max].
// Returns 0 and sets *out, or -1 with a reason in why.
static int parse_number(const char *text, cli_kind_t kind, double min, double max,
                        double *out, const char **why) {
    if (!plain_number(text, kind)) {
        *why = kind == CLI_INT ? "expected a whole number in" : "expected a number in";
        return -1;
    }
    errno = 0;
    double v = kind == CLI_INT ? (double)strtoll(text, NULL, 10) : strtod(text, NULL);
    if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
        *why = "not in";
        return -1;
    }
    *out = v;
    return 0;
}

// --help: the usage on stdout; CLI_DONE, or CLI_ERROR when it cannot be written.
static int help(const cli_t *cli) {
    usage(cli);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {   // closed, or a full disk
        fprintf(stderr, "%s: cannot write the help to standard output: %s\n",
                cli->program, errno ? strerror(errno) : "write error");
        return CLI_ERROR;
    }
    return CLI_DONE;
}

// Split "--name=value" into name and the returned value; "--name": value NULL.
static const char *split_name(const char *arg, char *name, size_t size) {
    const char *eq = strchr(arg, '=');
    if (eq && (size_t)(eq - arg) < size) {
        memcpy(name, arg, (size_t)(eq - arg));
        name[eq - arg] = '\0';
        return eq + 1;
    }
    snprintf(name, size, "%s", arg);
    return NULL;
}

// Store value for option name: --seed, --data, or opt (one of cli->opts).
static int set_value(cli_t *cli, const cli_opt_t *opt, const char *name,
                     const char *value) {
    int is_seed = opt == NULL && strcmp(name, "--seed") == 0;
    if (!opt && !is_seed) {                                     // --data
        if (value[0] == '\0' || strncmp(value, "--", 2) == 0) {
            fprintf(stderr, "%s: --data needs a directory name, got '%s'\n",
                    cli->program, value);
            return CLI_ERROR;
        }
        cli->data_dir = value;
        return CLI_RUN;
    }
    if (opt && opt->kind == CLI_TEXT) {
        size_t len = strlen(value);
        if ((double)len < opt->min || (double)len > opt->max) {
            fprintf(stderr, "%s: %s: expected text of %.0f..%.0f bytes, got %zu\n",
                    cli->program, name, opt->min, opt->max, len);
            return CLI_ERROR;
        }
        *opt->sval = value;
        return CLI_RUN;
    }
    cli_kind_t kind = is_seed ? CLI_INT : opt->kind;
    double min = is_seed ? 0 : opt->min, max = is_seed ? CLI_SEED_MAX : opt->max;
    const char *why = NULL;
    double v;
    if (parse_number(value, kind, min, max, &v, &why) != 0) {
        char range[64];
        fmt_range(range, sizeof range, kind, min, max);
        fprintf(stderr, "%s: %s: %s %s, got '%s'\n", cli->program, name, why,
                range, value);
        return CLI_ERROR;
    }
    if (is_seed)
        cli->seed = (uint64_t)v;
    else if (kind == CLI_INT)
        *opt->ival = (long)v;
    else
        *opt->rval = v == 0.0 ? 0.0 : v;   // never -0.0
    return CLI_RUN;
}

// The option at argv[*i], taking its value from argv[*i + 1] when it is not
// written "--name=value" (then *i moves past it). CLI_RUN to go on.
static int parse_option(cli_t *cli, int argc, char **argv, int *i) {
    const char *arg = argv[*i];
    char name[64];
    const char *value = split_name(arg, name, sizeof name);
    const cli_opt_t *opt = NULL;
    int builtin = strcmp(name, "--seed") == 0 || strcmp(name, "--data") == 0;
    for (int j = 0; j < cli->n_opts && !builtin; j++)
        if (strcmp(name, cli->opts[j].name) == 0) opt = &cli->opts[j];
    if (!builtin && !opt) {
        fprintf(stderr, "%s: unknown option '%s' (try --help)\n", cli->program, arg);
        return CLI_ERROR;
    }
    if (opt && opt->kind == CLI_FLAG) {
        if (value) {
            fprintf(stderr, "%s: %s takes no value\n", cli->program, name);
            return CLI_ERROR;
        }
        *opt->ival = 1;
        return CLI_RUN;
    }
    if (!value) {
        if (*i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", cli->program, name);
            return CLI_ERROR;
        }
        value = argv[++*i];
    }
    return set_value(cli, opt, name, value);
}

long cli_int(const cli_t *cli, const char *name) {
    for (int j = 0; j < cli->n_opts; j++)
        if (strcmp(name, cli->opts[j].name) == 0 && cli->opts[j].ival)
            return *cli->opts[j].ival;
    return 0;
}

int cli_require(char *why, size_t size, int holds, const char *fmt, ...) {
    if (holds) return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

int cli_parse(cli_t *cli, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) return help(cli);
        if (strcmp(arg, "--") == 0) {   // the end of the options: nothing may follow
            if (i + 1 < argc) {
                fprintf(stderr, "%s: unexpected argument '%s' after '--' (this program "
                        "takes options only)\n", cli->program, argv[i + 1]);
                return CLI_ERROR;
            }
            break;
        }
        if (strncmp(arg, "--", 2) != 0) {
            fprintf(stderr, "%s: unexpected argument '%s' (options start with --; "
                    "try --help)\n", cli->program, arg);
            return CLI_ERROR;
        }
        int rc = parse_option(cli, argc, argv, &i);
        if (rc != CLI_RUN) return rc;
    }
    char why[256];
    if (cli->check && cli->check(cli, why, sizeof why) != 0) {   // across options
        fprintf(stderr, "%s: %s\n", cli->program, why);
        return CLI_ERROR;
    }
    return CLI_RUN;
}
