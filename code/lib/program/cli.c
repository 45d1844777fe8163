// cli.c -- strict option parsing with one-line errors.
#include "program/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const cli_t *cli) {
    printf("usage: %s [options]\n%s\n\noptions:\n", cli->program, cli->summary);
    printf("  %-18s %s (default %llu)\n", "--seed N", "random seed",
           (unsigned long long)cli->seed);
    printf("  %-18s %s\n", "--data DIR", "write figure data and values to DIR");
    for (int i = 0; i < cli->n_opts; i++) {
        const cli_opt_t *o = &cli->opts[i];
        char flag[64];
        snprintf(flag, sizeof flag, "%s %s", o->name,
                 o->kind == CLI_FLAG ? "" : o->meta);
        if (o->kind == CLI_FLAG)
            printf("  %-18s %s\n", flag, o->help);
        else if (o->kind == CLI_INT)
            printf("  %-18s %s (%g..%g, default %ld)\n", flag, o->help, o->min,
                   o->max, *o->ival);
        else
            printf("  %-18s %s (%g..%g, default %g)\n", flag, o->help, o->min,
                   o->max, *o->rval);
    }
    printf("  %-18s %s\n", "--help", "show this help and exit");
}

// Parse text as a number of the given kind within [min, max].
// Returns 0 and sets *out, or -1 with a reason in why.
static int parse_number(const char *text, cli_kind_t kind, double min, double max,
                        double *out, const char **why) {
    char *end = NULL;
    errno = 0;
    double v;
    if (kind == CLI_INT) {
        long long n = strtoll(text, &end, 10);
        v = (double)n;
        if (end == text || *end != '\0') {
            *why = "expected a whole number";
            return -1;
        }
        if (errno == ERANGE) {
            *why = "number out of range";
            return -1;
        }
    } else {
        v = strtod(text, &end);
        if (end == text || *end != '\0' || !isfinite(v)) {
            *why = "expected a finite number";
            return -1;
        }
        if (errno == ERANGE) {
            *why = "number out of range";
            return -1;
        }
    }
    if (v < min || v > max) {
        *why = "value out of range";
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse(cli_t *cli, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(cli);
            return CLI_DONE;
        }
        // Accept both "--name value" and "--name=value".
        char name[64];
        const char *value = NULL;
        const char *eq = strchr(arg, '=');
        if (strncmp(arg, "--", 2) == 0 && eq && (size_t)(eq - arg) < sizeof name) {
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = '\0';
            value = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
        }

        const cli_opt_t *opt = NULL;
        int is_seed = strcmp(name, "--seed") == 0;
        int is_data = strcmp(name, "--data") == 0;
        for (int j = 0; j < cli->n_opts && !is_seed && !is_data; j++)
            if (strcmp(name, cli->opts[j].name) == 0) opt = &cli->opts[j];
        if (!is_seed && !is_data && !opt) {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", cli->program, arg);
            return CLI_ERROR;
        }
        if (opt && opt->kind == CLI_FLAG) {
            if (value) {
                fprintf(stderr, "%s: %s takes no value\n", cli->program, name);
                return CLI_ERROR;
            }
            *opt->ival = 1;
            continue;
        }
        if (!value) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: %s needs a value\n", cli->program, name);
                return CLI_ERROR;
            }
            value = argv[++i];
        }
        if (is_data) {
            if (value[0] == '\0') {
                fprintf(stderr, "%s: --data needs a directory name\n", cli->program);
                return CLI_ERROR;
            }
            cli->data_dir = value;
            continue;
        }
        cli_kind_t kind = is_seed ? CLI_INT : opt->kind;
        double min = is_seed ? 0 : opt->min, max = is_seed ? 4294967295.0 : opt->max;
        const char *why = NULL;
        double v;
        if (parse_number(value, kind, min, max, &v, &why) != 0) {
            fprintf(stderr, "%s: %s: %s in %g..%g, got '%s'\n", cli->program, name, why,
                    min, max, value);
            return CLI_ERROR;
        }
        if (is_seed)
            cli->seed = (uint64_t)v;
        else if (kind == CLI_INT)
            *opt->ival = (long)v;
        else
            *opt->rval = v;
    }
    return CLI_RUN;
}
