/* seccomp_fill.c — runs a program with the kernel's seccomp budget already spent, the way a process
 * starts under a container runtime or a parent whose own filters fill it:
 *
 *   seccomp_fill PROGRAM [ARG…]
 *
 * Sets PR_SET_NO_NEW_PRIVS, then installs allow-everything filters (every instruction `RET ALLOW`) until
 * the kernel refuses one: 4096 instructions each (BPF_MAXINSNS) while they fit, then half as many, down
 * to 1. A filter costs its length plus 4 instructions of the 32768 the kernel allows on one path (all
 * the filters a process runs), so afterwards no filter of any size can be installed (ENOMEM), while
 * every system call is still allowed. Then it `execv`s PROGRAM with the remaining arguments; the
 * filters (and NO_NEW_PRIVS) stay in force across the exec.
 * Built by the end-to-end tests with `cc` (SandboxFallbackTests); not a skill. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int install(unsigned short count)
{
    static struct sock_filter allow[BPF_MAXINSNS];
    for (int i = 0; i < count; i++) allow[i] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = { .len = count, .filter = allow };
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: seccomp_fill PROGRAM [ARG...]\n");
        return 2;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        fprintf(stderr, "seccomp_fill: PR_SET_NO_NEW_PRIVS: %s\n", strerror(errno));
        return 1;
    }
    int filters = 0;
    for (unsigned short size = BPF_MAXINSNS; size >= 1; size /= 2) {
        while (install(size) == 0) filters++;
        if (errno != ENOMEM) {
            fprintf(stderr, "seccomp_fill: a filter of %u instructions: %s (expected ENOMEM once full)\n", size, strerror(errno));
            return 1;
        }
    }
    if (getenv("SECCOMP_FILL_VERBOSE")) fprintf(stderr, "seccomp_fill: %d filters installed; the budget is spent\n", filters);
    execv(argv[1], argv + 1);
    fprintf(stderr, "seccomp_fill: cannot run %s: %s\n", argv[1], strerror(errno));
    return 127;
}
