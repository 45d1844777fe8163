// judge.c -- the judge's half of call.h: start the runner once per test process,
// contained, and call graded functions in it over two pipes.
//
// Environment (set by grade.sh): GRADER_RUNNER (the runner binary),
// GRADER_RUN_DIR (its empty working folder), GRADER_RUN_OUT (a file for what it
// prints), GRADER_RUN_UID / GRADER_RUN_GID (drop to them when root),
// GRADER_CALL_SECONDS (deadline per call), GRADER_CPU (CPU seconds),
// GRADER_MEM_MB (address space), GRADER_OUT_KB (largest output file).
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "call.h"
#include "wire.h"

static pid_t runner = 0;
static int to_runner = -1, from_runner = -1;

static long env_long(const char *name, long fallback) {
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : fallback;
}

static void stop_runner(void) {
    if (runner > 0) {
        kill(runner, SIGKILL);
        waitpid(runner, NULL, 0);
        runner = 0;
    }
}

// In the child, before exec: own session, limits, no network, the test user,
// no new privileges, an empty folder, an environment of two variables.
static _Noreturn void become_runner(int in, int out) {
    setsid();
    const char *path = getenv("GRADER_RUNNER");
    const char *dir = getenv("GRADER_RUN_DIR");
    const char *log = getenv("GRADER_RUN_OUT");
    int fd = open(log ? log : "/dev/null", O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0 || !path || dup2(in, 0) < 0 || dup2(out, 3) < 0 || dup2(fd, 1) < 0 ||
        dup2(fd, 2) < 0)
        _exit(120);
    long cpu = env_long("GRADER_CPU", 5), mem = env_long("GRADER_MEM_MB", 1024);
    long outkb = env_long("GRADER_OUT_KB", 256);
    struct rlimit r = {(rlim_t)cpu, (rlim_t)cpu + 1};
    setrlimit(RLIMIT_CPU, &r);
    r.rlim_cur = r.rlim_max = (rlim_t)mem << 20;
    setrlimit(RLIMIT_AS, &r);
    r.rlim_cur = r.rlim_max = (rlim_t)outkb << 10;
    setrlimit(RLIMIT_FSIZE, &r);
    r.rlim_cur = r.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &r);
    if (geteuid() == 0) {
        unshare(CLONE_NEWNET | CLONE_NEWIPC); // no network (best effort)
        r.rlim_cur = r.rlim_max = 64; // processes of the test user (a fork storm)
        setrlimit(RLIMIT_NPROC, &r);
        long uid = env_long("GRADER_RUN_UID", -1), gid = env_long("GRADER_RUN_GID", -1);
        if (uid <= 0 || gid <= 0 || setgroups(0, NULL) || setgid((gid_t)gid) ||
            setuid((uid_t)uid))
            _exit(121); // never run student code as root
    } else {
        unshare(CLONE_NEWUSER | CLONE_NEWNET); // no network where allowed
    }
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (dir && chdir(dir))
        _exit(122);
    char *argv[] = {(char *)path, NULL};
    char *envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
    execve(path, argv, envp);
    _exit(123);
}

static void start_runner(void) {
    int a[2], b[2];
    if (pipe2(a, O_CLOEXEC) || pipe2(b, O_CLOEXEC))
        cr_assert_fail("grader: no pipe");
    fflush(NULL);
    runner = fork();
    if (runner < 0)
        cr_assert_fail("grader: cannot start the runner");
    if (runner == 0)
        become_runner(a[0], b[1]);
    close(a[0]);
    close(b[1]);
    to_runner = a[1];
    from_runner = b[0];
    signal(SIGPIPE, SIG_IGN);
    atexit(stop_runner);
}

// Why the runner stopped answering, as a sentence (it is dead or killed).
static const char *why(char *buf, size_t size) {
    int st = 0;
    if (runner > 0 && waitpid(runner, &st, 0) == runner) {
        runner = 0;
        if (WIFEXITED(st) && WEXITSTATUS(st) >= 120 && WEXITSTATUS(st) <= 123)
            snprintf(buf, size, "the grader could not start the runner (%d)",
                     WEXITSTATUS(st));
        else if (WIFEXITED(st))
            snprintf(buf, size,
                     "the function ended the program (exit status %d) "
                     "instead of returning",
                     WEXITSTATUS(st));
        else if (WTERMSIG(st) == SIGSYS)
            snprintf(buf, size,
                     "the function made a system call the grader forbids "
                     "(exec, fork, sockets, opening files, ...)");
        else if (WTERMSIG(st) == SIGXCPU || WTERMSIG(st) == SIGKILL)
            snprintf(buf, size, "the function did not return within the time limit");
        else if (WTERMSIG(st) == SIGXFSZ)
            snprintf(buf, size, "the function printed more than the output limit");
        else
            snprintf(buf, size, "the function crashed (%s)", strsignal(WTERMSIG(st)));
    } else {
        snprintf(buf, size, "the runner stopped answering");
    }
    return buf;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

// Read exactly n bytes before the deadline; 0, or -1 (EOF, error) or -2 (late).
static int read_all(void *p, size_t n, double deadline) {
    char *c = p;
    while (n > 0) {
        int ms = (int)((deadline - now()) * 1000.0);
        if (ms <= 0)
            return -2;
        struct pollfd pf = {from_runner, POLLIN, 0};
        int k = poll(&pf, 1, ms);
        if (k < 0 && errno == EINTR)
            continue;
        if (k == 0)
            return -2;
        ssize_t got = read(from_runner, c, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        c += got;
        n -= (size_t)got;
    }
    return 0;
}

static int write_all(const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t put = write(to_runner, c, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        c += put;
        n -= (size_t)put;
    }
    return 0;
}

static _Noreturn void lost(const char *function, int how) {
    char buf[200];
    if (how == -2) {
        stop_runner();
        cr_assert_fail("%s: the function did not return within %ld s", function,
                       env_long("GRADER_CALL_SECONDS", 5));
    }
    cr_assert_fail("%s: %s", function, why(buf, sizeof buf));
    abort(); // cr_fatal does not return; this tells the compiler so
}

grader_ret grader_call(const char *function, grader_arg *args, int n) {
    if (runner == 0)
        start_runner();
    wire_head h = {WIRE_MAGIC, (uint32_t)strlen(function), (uint32_t)n};
    unsigned char **sent = calloc((size_t)n + 1, sizeof *sent);
    cr_assert_not_null(sent);
    int bad = write_all(&h, sizeof h) || write_all(function, h.name_len);
    for (int k = 0; k < n && !bad; k++) {
        grader_arg *a = &args[k];
        int buf = (a->kind == GRADER_BUF || a->kind == GRADER_CBUF) && a->p;
        uint32_t present = a->p != NULL;
        // the same buffer passed twice (y may alias x): sent once, aliased there
        for (int j = 0; buf && j < k; j++)
            if (sent[j] && args[j].p == a->p && args[j].bytes == a->bytes) {
                present = 2 + (uint32_t)j;
                break;
            }
        wire_arg w = {(uint32_t)a->kind, present, a->i, a->d, a->bytes};
        bad = write_all(&w, sizeof w);
        if (bad || !buf || present != 1)
            continue;
        size_t total = a->bytes + 2 * WIRE_GUARD;
        sent[k] = malloc(total);
        cr_assert_not_null(sent[k]);
        wire_fill_guard(sent[k], (unsigned)k);
        memcpy(sent[k] + WIRE_GUARD, a->p, a->bytes);
        wire_fill_guard(sent[k] + WIRE_GUARD + a->bytes, (unsigned)k + 101);
        bad = write_all(sent[k], total);
    }
    double deadline = now() + (double)env_long("GRADER_CALL_SECONDS", 5);
    if (bad)
        lost(function, -1);
    wire_reply r;
    int how = read_all(&r, sizeof r, deadline);
    if (how)
        lost(function, how);
    if (r.magic != WIRE_REPLY)
        cr_assert_fail("%s: the runner's answer is garbled", function);
    for (int k = 0; k < n; k++) {
        grader_arg *a = &args[k];
        if (!sent[k])
            continue;
        size_t total = a->bytes + 2 * WIRE_GUARD;
        unsigned char *back = malloc(total);
        cr_assert_not_null(back);
        how = read_all(back, total, deadline);
        if (how)
            lost(function, how);
        if (memcmp(back, sent[k], WIRE_GUARD))
            cr_assert_fail(
                "%s: wrote before the start of argument %d (a buffer of %zu bytes)",
                function, k + 1, a->bytes);
        if (memcmp(back + WIRE_GUARD + a->bytes, sent[k] + WIRE_GUARD + a->bytes,
                   WIRE_GUARD))
            cr_assert_fail(
                "%s: wrote past the end of argument %d (a buffer of %zu bytes)",
                function, k + 1, a->bytes);
        int aliased = 0; // a const view of a buffer passed again as writable
        for (int j = k + 1; j < n; j++)
            aliased |= args[j].p == a->p && args[j].bytes == a->bytes && !sent[j] &&
                       args[j].kind == GRADER_BUF;
        if (a->kind == GRADER_CBUF && !aliased &&
            memcmp(back + WIRE_GUARD, sent[k] + WIRE_GUARD, a->bytes))
            cr_assert_fail("%s: changed argument %d, which is const", function, k + 1);
        if (a->kind == GRADER_BUF || aliased) // a const buffer may be read-only
            memcpy(a->p, back + WIRE_GUARD, a->bytes);
        free(back);
        free(sent[k]);
    }
    free(sent);
    return (grader_ret){r.ret_i, r.ret_d};
}
