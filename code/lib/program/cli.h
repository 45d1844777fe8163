// cli.h -- the command line every chapter program shares.
//
//   chNN_slug [--seed N] [--data DIR] [program options] [--help]
//
// Options are validated strictly: an unknown flag, a missing or non-numeric
// value, or a value outside its range prints one line on stderr and makes
// cli_parse() return CLI_ERROR; the program then exits with status 2.
// Numbers are written plainly: "42", "-3", "0.5", "1e-3"; refused are " 5",
// "+5", "0x10", "-0", "inf", "nan". A value may follow as "--name value" or
// "--name=value". "--" ends the options (nothing may follow it: the programs
// take no other arguments). --data takes any name that does not start "--".
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdint.h>

enum { CLI_RUN = 0, CLI_DONE = 1, CLI_ERROR = 2 };

// The largest --seed: seeds are 32-bit, 0..4294967295.
#define CLI_SEED_MAX 4294967295.0

// CLI_FLAG takes no value: giving it sets *ival to 1 (its default is 0).
// CLI_TEXT takes any text of min..max bytes (min >= 1).
typedef enum { CLI_INT, CLI_REAL, CLI_FLAG, CLI_TEXT } cli_kind_t;

typedef struct {
    const char *name;    // "--seq-len"
    const char *meta;    // "N", shown in --help
    const char *help;    // one line
    cli_kind_t kind;
    long *ival;          // CLI_INT: holds the default, receives the value;
                         // CLI_FLAG: receives 1
    double *rval;        // CLI_REAL: holds the default, receives the value
    const char **sval;   // CLI_TEXT: holds the default, receives the value
                         // (argv's own string)
    double min, max;     // accepted range, inclusive (CLI_TEXT: its length)
} cli_opt_t;

typedef struct cli {
    const char *program;   // e.g. "ch02_scaled_attention"
    const char *summary;   // one line for --help
    const cli_opt_t *opts;   // program-specific options (may be NULL)
    int n_opts;
    uint64_t seed;         // --seed, default set by the caller
    const char *data_dir;  // --data, NULL unless given
    // The checks across options (may be NULL), run once every option is read:
    // 0 when the values go together, else nonzero with one line in why (no
    // newline), printed as "PROGRAM: why" -- cli_parse then returns CLI_ERROR.
    int (*check)(const struct cli *cli, char *why, size_t size);
} cli_t;

// Parse argv into cli and the option targets. Returns CLI_RUN to go on,
// CLI_DONE after printing --help (exit 0), CLI_ERROR after one line on
// stderr (exit 2), also when --help cannot be written to stdout.
int cli_parse(cli_t *cli, int argc, char **argv);

// The value of integer (or flag) option name, for a check across options;
// 0 when cli has no such option.
long cli_int(const cli_t *cli, const char *name);

// For a check across options: 0 when holds, else -1 with the message (printf
// format fmt) written to why (size bytes).
//   return cli_require(why, size, d % h == 0, "--d-model %ld ...", d, h);
int cli_require(char *why, size_t size, int holds, const char *fmt, ...);

#endif
