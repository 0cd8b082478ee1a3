/*
 * skillhost_sandbox.h — non-variadic C wrappers for the kernel interfaces the worker's sandbox uses.
 *
 * Swift cannot call variadic C functions (`syscall`, `prctl`), and <linux/landlock.h>,
 * <linux/seccomp.h> and <linux/filter.h> are not part of Swift's Glibc module. This target is only
 * that: one fixed-arity function per system call, returning what the kernel returned (-1 with errno set
 * on failure, as the libc wrappers do). The policy (which rules, which filter) lives in Swift
 * (Sources/skillhost-worker/Sandbox/). Used by the worker (to apply the sandbox) and by the host (to
 * report which features the kernel has), and by both to hand checked skill files to a scan process
 * that is already starting (SCM_RIGHTS). Nothing here is part of the skill ABI.
 */
#ifndef SKILLHOST_SANDBOX_H
#define SKILLHOST_SANDBOX_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <spawn.h>
#include <linux/filter.h>
#include <sys/syscall.h> /* SYS_* numbers for the seccomp filter, per architecture */

/* Landlock's structs as the kernel defines them (ABI 1–7). Declared here rather than taken from
 * <linux/landlock.h>, which on many distributions predates network rules and scoping; the kernel's
 * layout of these is fixed. The constants (access rights, scopes) are in Swift (Sandbox/Landlock.swift). */
struct skh_landlock_ruleset_attr {
    uint64_t handled_access_fs;  /* ABI 1 */
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};

/* landlock_create_ruleset(2). With attr NULL, size 0 and LANDLOCK_CREATE_RULESET_VERSION in flags it
 * returns the highest Landlock ABI version the kernel supports (or -1: EOPNOTSUPP disabled at boot,
 * ENOSYS not built in). */
int skh_landlock_create_ruleset(const struct skh_landlock_ruleset_attr *attr, size_t size, uint32_t flags);

/* landlock_add_rule(2) for a path: `parent_fd` is an O_PATH descriptor of the file or folder. */
int skh_landlock_add_path_rule(int ruleset_fd, uint64_t allowed_access, int parent_fd);

/* landlock_add_rule(2) for a TCP port. */
int skh_landlock_add_port_rule(int ruleset_fd, uint64_t allowed_access, uint64_t port);

/* landlock_restrict_self(2): the calling thread (and every thread or process it creates afterwards)
 * is confined to the ruleset. Needs PR_SET_NO_NEW_PRIVS first. */
int skh_landlock_restrict_self(int ruleset_fd, uint32_t flags);

/* seccomp(SECCOMP_SET_MODE_FILTER, flags, prog) with a program of `count` instructions. Pass
 * SECCOMP_FILTER_FLAG_TSYNC to put every thread of the process under the filter. */
int skh_seccomp_set_filter(const struct sock_filter *instructions, unsigned short count, unsigned int flags);

/* 0 when this kernel's seccomp filters can answer a system call with an errno
 * (seccomp(SECCOMP_GET_ACTION_AVAIL) for SECCOMP_RET_ERRNO; Linux 4.14), else -1 with errno set. */
int skh_seccomp_errno_available(void);

/* prctl(2) with exactly four arguments after the option. */
int skh_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5);

/* capset(2) with every capability set (effective, permitted, inheritable) empty: the process keeps
 * its user id but loses every privilege that goes with it (root included). */
int skh_drop_all_capabilities(void);

/* GNU extensions Swift's Glibc module does not expose (it is built without _GNU_SOURCE). */

/* unshare(2). */
int skh_unshare(int flags);

/* Adds to `actions` the closing of every descriptor from `first` up in the child
 * (posix_spawn_file_actions_addclosefrom_np, glibc 2.34, which Swift's Glibc module does not show):
 * a descriptor the host's own parent leaked without close-on-exec never reaches a worker.
 * 0 on success, else an errno value. */
int skh_spawn_close_from(posix_spawn_file_actions_t *actions, int first);

/* open(path, O_PATH | O_CLOEXEC): a descriptor to hang a Landlock rule on. */
int skh_open_path(const char *path);

/* The path the dynamic loader loaded the library whose file name is `name` (e.g. "libswiftCore.so")
 * from; NULL if no such library is loaded. Owned by the dynamic loader. A walk of the loaded objects'
 * names (dl_iterate_phdr(3), ~5 µs), not dladdr(3), whose nearest-symbol search through a library as
 * large as the Swift runtime took ~160 µs. */
const char *skh_loaded_library_path(const char *name);

/* The most descriptors one message of `skh_send_fds` carries. */
#define SKH_MAX_FDS_PER_MESSAGE 32

/* Sends `len` bytes at `data` and the `count` descriptors at `fds` (1 ≤ count ≤
 * SKH_MAX_FDS_PER_MESSAGE; SCM_RIGHTS, in order) as one message on socket `sock` (the CMSG macros are
 * not callable from Swift). Returns what sendmsg(2) returned (-1 with EINVAL for a bad count). */
ssize_t skh_send_fds(int sock, const int *fds, int count, const void *data, size_t len);

/* Receives one message of at most `capacity` bytes into `data` on socket `sock`, and the descriptors it
 * carried (close-on-exec, in order) into `fds` (room for SKH_MAX_FDS_PER_MESSAGE), their number into
 * `*count`. Returns what recvmsg(2) returned (0 at the end). `*truncated` is 1 when the message was
 * longer than `capacity`, carried more descriptors than fit or other control data: every descriptor it
 * carried is then closed (`*count` 0); the bytes that fit are in `data`. */
ssize_t skh_recv_fds(int sock, int *fds, int *count, int *truncated, void *data, size_t capacity);

/* The scan process's progress word: one 64-bit word in a page that the host and skillhost-scan both
 * map from one memfd (the host's ScanProcess makes it and hands it over as the scan process's fd 5).
 * Before skillhost-scan calls the entry of a file it has just loaded (an image without Swift), it
 * stores `skh_progress_entry`: the file's place in its batch + 1 in the low 16 bits, the
 * CLOCK_MONOTONIC microsecond the entry started above them (0: no entry yet). The host reads it when
 * the process dies or a step overruns its deadline, to tell a crash or hang in that entry from one in
 * the load before it, without a line on the result pipe per step. */

/* Makes the word: a close-on-exec memfd of one page, mapped shared into `*word`. Returns the memfd, or
 * -1 (errno set, `*word` NULL). The caller unmaps the page (`skh_progress_unmap`) and closes the fd. */
int skh_progress_create(uint64_t **word);

/* The word the host handed over as descriptor `fd`, mapped shared; NULL when `fd` is not such a memfd
 * (not open, not a page long, cannot be mapped). */
uint64_t *skh_progress_map(int fd);

/* Unmaps a page `skh_progress_create` or `skh_progress_map` mapped. */
void skh_progress_unmap(uint64_t *word);

/* skillhost-scan: the entry of the file at `index` of its batch starts now. */
void skh_progress_entry(uint64_t *word, uint32_t index);

/* The host: no entry yet (before a process starts on the word). */
void skh_progress_reset(uint64_t *word);

/* The host: the word's current value (an atomic load). */
uint64_t skh_progress_load(const uint64_t *word);

/* The host: CLOCK_MONOTONIC now, in microseconds (the word's time base). */
uint64_t skh_progress_now(void);

#endif
