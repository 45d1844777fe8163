// runner.c -- the process that holds the student's code: it reads calls from
// the judge on fd 0, makes them, and writes the buffers back on fd 3. Before the
// first call it installs a syscall filter (libseccomp) that allows computing,
// memory and writing to open descriptors, and stops the process on exec, fork,
// sockets, opening files, signalling others or tracing. Linked with the
// student's library, shims.c (the table of calls) and -lseccomp when present.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "call.h"
#include "wire.h"

#if defined(__has_include)
#if __has_include(<seccomp.h>) && !defined(GRADER_NO_SECCOMP)
#include <seccomp.h>
#define HAVE_SECCOMP 1
#endif
#endif

typedef struct {
    const char *name;
    grader_shim_fn *fn;
} shim_entry;
extern const shim_entry grader_shims[];
extern const int grader_nshims;

static int read_all(int fd, void *p, size_t n) {
    char *c = p;
    while (n > 0) {
        ssize_t got = read(fd, c, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        c += got;
        n -= (size_t)got;
    }
    return 0;
}

static int write_all(int fd, const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t put = write(fd, c, n);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return -1;
        c += put;
        n -= (size_t)put;
    }
    return 0;
}

// Allow a list; refuse the rest with EPERM; stop the process on the calls a
// graded function has no business making, so the judge can name the reason.
static int contain(void) {
#ifdef HAVE_SECCOMP
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!f) return -1;
    static const int allow[] = {
        SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev),
        SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(brk),
        SCMP_SYS(mprotect), SCMP_SYS(madvise), SCMP_SYS(exit), SCMP_SYS(exit_group),
        SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask), SCMP_SYS(futex),
        SCMP_SYS(clock_gettime), SCMP_SYS(gettimeofday), SCMP_SYS(getrandom),
        SCMP_SYS(newfstatat), SCMP_SYS(fstat), SCMP_SYS(lseek), SCMP_SYS(sched_yield),
        SCMP_SYS(nanosleep), SCMP_SYS(clock_nanosleep), SCMP_SYS(getpid),
        SCMP_SYS(gettid),
    };
    static const int stop[] = {
        SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork),
        SCMP_SYS(clone), SCMP_SYS(clone3), SCMP_SYS(socket), SCMP_SYS(socketpair),
        SCMP_SYS(connect), SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(openat2),
        SCMP_SYS(creat), SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv),
        SCMP_SYS(process_vm_writev), SCMP_SYS(kill), SCMP_SYS(tkill),
        SCMP_SYS(symlink), SCMP_SYS(symlinkat), SCMP_SYS(link), SCMP_SYS(linkat),
        SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(unlink),
        SCMP_SYS(unlinkat), SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(chmod),
        SCMP_SYS(fchmodat), SCMP_SYS(setsid), SCMP_SYS(prctl), SCMP_SYS(seccomp),
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof allow / sizeof *allow; i++)
        bad |= seccomp_rule_add(f, SCMP_ACT_ALLOW, allow[i], 0);
    for (size_t i = 0; i < sizeof stop / sizeof *stop; i++)
        bad |= seccomp_rule_add(f, SCMP_ACT_KILL_PROCESS, stop[i], 0);
    bad |= seccomp_load(f);
    seccomp_release(f);
    return bad ? -1 : 0;
#else
    return 0;   // no libseccomp here: the judge still decides, but nothing is refused
#endif
}

int main(void) {
    if (contain()) return 119;
    for (;;) {
        wire_head h;
        if (read_all(0, &h, sizeof h)) return 0;   // the judge hung up
        char name[WIRE_MAX_NAME + 1];
        if (h.magic != WIRE_MAGIC || h.name_len > WIRE_MAX_NAME ||
            h.nargs > WIRE_MAX_ARGS || read_all(0, name, h.name_len))
            return 118;
        name[h.name_len] = 0;
        grader_arg a[WIRE_MAX_ARGS];
        unsigned char *mem[WIRE_MAX_ARGS] = {0};
        for (uint32_t k = 0; k < h.nargs; k++) {
            wire_arg w;
            if (read_all(0, &w, sizeof w)) return 118;
            a[k] = (grader_arg){.kind = (int)w.kind, .i = w.i, .d = w.d,
                                .bytes = (size_t)w.bytes};
            if ((w.kind == GRADER_BUF || w.kind == GRADER_CBUF) && w.present >= 2) {
                if (w.present - 2 >= k || !mem[w.present - 2]) return 117;
                a[k].p = a[w.present - 2].p;   // the same buffer as an earlier one
            } else if ((w.kind == GRADER_BUF || w.kind == GRADER_CBUF) && w.present) {
                mem[k] = malloc((size_t)w.bytes + 2 * WIRE_GUARD);
                if (!mem[k] || read_all(0, mem[k], (size_t)w.bytes + 2 * WIRE_GUARD))
                    return 117;
                a[k].p = mem[k] + WIRE_GUARD;
            }
        }
        grader_shim_fn *fn = NULL;
        for (int s = 0; s < grader_nshims; s++)
            if (!strcmp(grader_shims[s].name, name)) fn = grader_shims[s].fn;
        if (!fn) return 116;
        grader_ret ret = {0, 0.0};
        fn(a, &ret);
        fflush(stdout);
        wire_reply r = {WIRE_REPLY, 0, ret.i, ret.d};
        if (write_all(3, &r, sizeof r)) return 115;
        for (uint32_t k = 0; k < h.nargs; k++) {
            if (!mem[k]) continue;
            if (write_all(3, mem[k], a[k].bytes + 2 * WIRE_GUARD)) return 115;
            free(mem[k]);
        }
    }
}
