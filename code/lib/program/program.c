// program.c -- parse the command line, open the report.
#include "program/program.h"

int program_start(cli_t *cli, report_t *r, int argc, char **argv) {
    int rc = cli_parse(cli, argc, argv);
    if (rc != CLI_RUN) return rc == CLI_DONE ? 0 : 2;
    if (report_open(r, cli->program, cli->data_dir) != 0) return 2;
    return -1;
}
