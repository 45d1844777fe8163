// guard.c -- linked into every graded test binary (with ld --wrap): a submission
// that calls exit() inside a test would otherwise end the test process "normally",
// which Criterion counts as a pass. Each wrapped call aborts instead: a crash.
#include <stdio.h>
#include <stdlib.h>
static _Noreturn void refuse(const char *fn, int status) {
    fprintf(stderr, "\ngrader: the code called %s(%d) inside a test\n", fn, status);
    fflush(stderr);
    abort();
}
void __wrap_exit(int status) { refuse("exit", status); }
void __wrap__exit(int status) { refuse("_exit", status); }
void __wrap__Exit(int status) { refuse("_Exit", status); }
void __wrap_quick_exit(int status) { refuse("quick_exit", status); }
