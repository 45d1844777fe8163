// program.h -- the start every chapter program shares.
//
//   report_t r;
//   int rc = program_start(&cli, &r, argc, argv);
//   if (rc >= 0) return rc;
#ifndef PROGRAM_H
#define PROGRAM_H

#include "program/cli.h"
#include "program/report.h"

// Parse argv into cli (cli_parse), then open the report on cli->data_dir
// (report_open). Returns -1 when the program should go on, or the status it
// should exit with: 0 after --help, 2 after a bad option or an unusable
// --data DIR (one line on stderr in both cases). r is open only on -1.
int program_start(cli_t *cli, report_t *r, int argc, char **argv);

#endif
