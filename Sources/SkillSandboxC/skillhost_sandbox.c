/* Non-variadic wrappers; see include/skillhost_sandbox.h. */
#define _GNU_SOURCE
#include "skillhost_sandbox.h"
#include <link.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/syscall.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* The same numbers on x86_64 and aarch64 (system calls added after 4.x share one table). */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#define SKH_RULE_PATH_BENEATH 1
#define SKH_RULE_NET_PORT 2
#define SKH_SECCOMP_SET_MODE_FILTER 1

struct skh_path_beneath_attr { uint64_t allowed_access; int32_t parent_fd; } __attribute__((packed));
struct skh_net_port_attr { uint64_t allowed_access; uint64_t port; };

int skh_landlock_create_ruleset(const struct skh_landlock_ruleset_attr *attr, size_t size, uint32_t flags) {
    return (int)syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

int skh_landlock_add_path_rule(int ruleset_fd, uint64_t allowed_access, int parent_fd) {
    struct skh_path_beneath_attr rule = { .allowed_access = allowed_access, .parent_fd = parent_fd };
    return (int)syscall(SYS_landlock_add_rule, ruleset_fd, SKH_RULE_PATH_BENEATH, &rule, 0);
}

int skh_landlock_add_port_rule(int ruleset_fd, uint64_t allowed_access, uint64_t port) {
    struct skh_net_port_attr rule = { .allowed_access = allowed_access, .port = port };
    return (int)syscall(SYS_landlock_add_rule, ruleset_fd, SKH_RULE_NET_PORT, &rule, 0);
}

int skh_landlock_restrict_self(int ruleset_fd, uint32_t flags) {
    return (int)syscall(SYS_landlock_restrict_self, ruleset_fd, flags);
}

int skh_seccomp_set_filter(const struct sock_filter *instructions, unsigned short count, unsigned int flags) {
    struct sock_fprog prog = { .len = count, .filter = (struct sock_filter *)instructions };
    return (int)syscall(SYS_seccomp, SKH_SECCOMP_SET_MODE_FILTER, flags, &prog);
}

int skh_seccomp_errno_available(void) {
    unsigned int action = 0x00050000U; /* SECCOMP_RET_ERRNO */
    return (int)syscall(SYS_seccomp, 2 /* SECCOMP_GET_ACTION_AVAIL */, 0, &action);
}

int skh_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5) {
    return prctl(option, a2, a3, a4, a5);
}

int skh_drop_all_capabilities(void) {
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
    return (int)syscall(SYS_capset, &header, data);
}

int skh_unshare(int flags) { return unshare(flags); }

int skh_spawn_close_from(posix_spawn_file_actions_t *actions, int first) {
    return posix_spawn_file_actions_addclosefrom_np(actions, first);
}

int skh_open_path(const char *path) { return open(path, O_PATH | O_CLOEXEC); }

struct skh_library_search { const char *name; const char *path; };

static int skh_match_library(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct skh_library_search *search = data;
    const char *slash = strrchr(info->dlpi_name, '/');
    if (slash == NULL || strcmp(slash + 1, search->name) != 0) return 0;
    search->path = info->dlpi_name;
    return 1;
}

const char *skh_loaded_library_path(const char *name) {
    struct skh_library_search search = { name, NULL };
    dl_iterate_phdr(skh_match_library, &search);
    return search.path;
}

ssize_t skh_send_fds(int sock, const int *fds, int count, const void *data, size_t len) {
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int) * SKH_MAX_FDS_PER_MESSAGE)]; } control;
    if (count < 1 || count > SKH_MAX_FDS_PER_MESSAGE) { errno = EINVAL; return -1; }
    memset(&control, 0, sizeof control);
    struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                          .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count) };
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
    memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)count);
    return sendmsg(sock, &msg, MSG_NOSIGNAL);
}

ssize_t skh_recv_fds(int sock, int *fds, int *count, int *truncated, void *data, size_t capacity) {
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int) * SKH_MAX_FDS_PER_MESSAGE)]; } control;
    struct iovec iov = { .iov_base = data, .iov_len = capacity };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
    *count = 0;
    *truncated = 0;
    ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0) return n;
    int bad = (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0, blocks = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len >= CMSG_LEN(0)) {
            if (++blocks > 1) bad = 1;  /* one block of descriptors per message */
            size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < k; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                if (*count < SKH_MAX_FDS_PER_MESSAGE) fds[(*count)++] = fd; else { close(fd); bad = 1; }
            }
        } else {
            bad = 1;
        }
    }
    if (bad) {
        for (int i = 0; i < *count; i++) close(fds[i]);
        *count = 0;
        *truncated = 1;
    }
    return n;
}

int skh_progress_create(uint64_t **word) {
    *word = NULL;
    int fd = memfd_create("skillhost-scan-progress", MFD_CLOEXEC);
    if (fd < 0) return -1;
    long page = sysconf(_SC_PAGESIZE);
    if (ftruncate(fd, page) != 0) { int e = errno; close(fd); errno = e; return -1; }
    void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) { int e = errno; close(fd); errno = e; return -1; }
    *word = p;
    return fd;
}

uint64_t *skh_progress_map(int fd) {
    struct stat st;
    long page = sysconf(_SC_PAGESIZE);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != page) return NULL;
    void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

void skh_progress_unmap(uint64_t *word) {
    if (word) munmap(word, (size_t)sysconf(_SC_PAGESIZE));
}

uint64_t skh_progress_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void skh_progress_entry(uint64_t *word, uint32_t index) {
    __atomic_store_n(word, (skh_progress_now() << 16) | ((uint64_t)(index + 1) & 0xffff), __ATOMIC_RELEASE);
}

void skh_progress_reset(uint64_t *word) {
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
}

uint64_t skh_progress_load(const uint64_t *word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}
