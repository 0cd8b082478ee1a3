/* hostile.c — intent `fixture.hostile`: tries, inside one invoke, every escape the worker sandbox must
 * block, and the actions it must allow, and completes with the errno of each (0 = it worked):
 *
 *   {"escapes": {"read_outside": 13, …}, "allowed": {"data_folder": 0, …}}
 *
 * Input (all strings): "hostPid" (the skillhost process; default: the worker's parent), "outsideFile" (a file outside every grant,
 * in the test's temporary home), "outsideDir" (a folder outside every grant), "otherData" (another
 * skill's data folder), "port" (a loopback TCP port with a listener), "udpPort" (a loopback UDP port
 * the test reads: `udp_send` sends one datagram "hostile" to it), "secret" (the name of a variable
 * set in the host's environment), "grantedDir" (a folder the second run grants).
 * Nothing here kills the worker: every blocked action must come back as an error. If an escape works
 * it is undone where possible (a forked child exits at once, a written file is removed).
 * `fixture.hostile.ok` answers {"ok":true}. `fixture.hostile.peek` tries only the two harmless escapes
 * (read "outsideFile", see variable "secret") and answers {"read_outside":E,"secret_env":E}: safe to run
 * unsandboxed (the full list would ptrace the host there). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixture_skill.h"

/* A string member of `json` copied into `out` (empty if absent). */
static void member(const char *json, const char *key, char *out, size_t size)
{
    const char *v;
    size_t n;
    out[0] = 0;
    if (fixture_string_member(json, key, &v, &n) && n < size) { memcpy(out, v, n); out[n] = 0; }
}

static int err(int ok) { return ok ? 0 : (errno ? errno : -1); }

/* Creates `path`, writes and reads it back, then removes it: 0 or the first errno. */
static int write_read(const char *path)
{
    char buf[8];
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return errno;
    if (write(fd, "hostile", 7) != 7) { int e = errno; close(fd); unlink(path); return e; }
    close(fd);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { int e = errno; unlink(path); return e; }
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    if (n != 7) { unlink(path); return EIO; }
    return unlink(path) == 0 ? 0 : errno;
}

static int read_file(const char *path)
{
    char buf[16];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t n = read(fd, buf, sizeof buf);
    int e = n < 0 ? errno : 0;
    close(fd);
    return e;
}

static int connect_port(int port)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return errno;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int e = connect(s, (struct sockaddr *)&a, sizeof a) == 0 ? 0 : errno;
    close(s);
    return e;
}

/* Sends the datagram "hostile" to 127.0.0.1:`port`: 0 if it was sent, else the first errno (the
 * socket refused, or ENETUNREACH in a network namespace whose loopback is down). Whether it arrived
 * is for the test to see. */
static int udp_send(int port)
{
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0) return errno;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int e = sendto(s, "hostile", 7, 0, (struct sockaddr *)&a, sizeof a) == 7 ? 0 : errno;
    close(s);
    return e;
}

static int bind_port(void)
{
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return errno;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0 };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int e = bind(s, (struct sockaddr *)&a, sizeof a) == 0 ? 0 : errno;
    close(s);
    return e;
}

/* Forks up to `count` children (each exits at once): 0 if all forks worked, else the first errno. */
static int fork_many(int count)
{
    for (int i = 0; i < count; i++) {
        pid_t p = fork();
        if (p == 0) _exit(0);
        if (p < 0) { int e = errno; while (waitpid(-1, NULL, WNOHANG) > 0) {} return e; }
    }
    while (waitpid(-1, NULL, 0) > 0) {}
    return 0;
}

/* 0 if `name` is in this process's environment or its /proc/self/environ, else ENOENT. */
static int secret_visible(const char *name)
{
    if (name[0] && getenv(name)) return 0;
    char buf[65536];
    int fd = open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ENOENT;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    size_t len = strlen(name);
    for (ssize_t i = 0; n > 0 && name[0] && i + (ssize_t)len < n; i++) {
        if ((i == 0 || buf[i - 1] == 0) && memcmp(buf + i, name, len) == 0 && buf[i + len] == '=') return 0;
    }
    return ENOENT;
}

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.hostile.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    if (strcmp(call->intent, "fixture.hostile.peek") == 0) {
        char file[1024], name[128], result[96];
        member(call->input_json, "outsideFile", file, sizeof file);
        member(call->input_json, "secret", name, sizeof name);
        int n = snprintf(result, sizeof result, "{\"read_outside\":%d,\"secret_env\":%d}", read_file(file), secret_visible(name));
        call->complete(call, SKH_STATUS_OK, result, (size_t)n, "peeked");
        return;
    }
    char host_pid[32], outside_file[1024], outside_dir[1024], other_data[1024], port[16], udp_port[16], secret[128], granted[1024], data[1024];
    char path[2048];
    member(call->input_json, "hostPid", host_pid, sizeof host_pid);
    member(call->input_json, "outsideFile", outside_file, sizeof outside_file);
    member(call->input_json, "outsideDir", outside_dir, sizeof outside_dir);
    member(call->input_json, "otherData", other_data, sizeof other_data);
    member(call->input_json, "port", port, sizeof port);
    member(call->input_json, "udpPort", udp_port, sizeof udp_port);
    member(call->input_json, "secret", secret, sizeof secret);
    member(call->input_json, "grantedDir", granted, sizeof granted);
    member(call->context_json, "dataDir", data, sizeof data);
    pid_t host = host_pid[0] ? (pid_t)atoi(host_pid) : getppid(); /* the worker's parent is the host */

    char out[4096];
    size_t used = 0;
#define REPORT(name, value) used += (size_t)snprintf(out + used, sizeof out - used, "%s\"%s\":%d", \
                                                     out[used - 1] == '{' ? "" : ",", name, (value))
    used += (size_t)snprintf(out, sizeof out, "{\"escapes\":{");

    REPORT("read_outside", read_file(outside_file));
    snprintf(path, sizeof path, "%s/hostile-was-here", outside_dir);
    REPORT("write_outside", write_read(path));
    snprintf(path, sizeof path, "%s/hostile-was-here", other_data);
    REPORT("write_other_skill", write_read(path));
    snprintf(path, sizeof path, "%s/../hostile-was-here", data);
    REPORT("write_data_parent", write_read(path));
    REPORT("connect_port", connect_port(atoi(port)));
    REPORT("bind_port", bind_port());
    REPORT("udp_send", udp_send(atoi(udp_port)));
    snprintf(path, sizeof path, "/proc/%d/mem", (int)host);
    REPORT("host_proc_mem", read_file(path));
    snprintf(path, sizeof path, "/proc/%d/environ", (int)host);
    REPORT("host_proc_environ", read_file(path));
    REPORT("kill_host", err(kill(host, SIGWINCH) == 0));
    errno = 0;
    REPORT("ptrace_host", err(ptrace(PTRACE_ATTACH, host, NULL, NULL) == 0));
    REPORT("secret_env", secret_visible(secret));
    {
        char *argv[] = { "sh", "-c", "exit 0", NULL };
        char *envp[] = { NULL };
        REPORT("run_sh", err(execve("/bin/sh", argv, envp) == 0));
    }
    REPORT("fork_2000", fork_many(2000));
    {
        int s = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
        REPORT("raw_socket", err(s >= 0));
        if (s >= 0) close(s);
        s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
        REPORT("packet_socket", err(s >= 0));
        if (s >= 0) close(s);
        /* Without a granted port no socket of any family can be made (DNS over UDP, IPv6, the
         * kernel's routing tables over netlink); with one, these work and only TCP is filtered. */
        s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        REPORT("udp_socket", err(s >= 0));
        if (s >= 0) close(s);
        s = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
        REPORT("inet6_socket", err(s >= 0));
        if (s >= 0) close(s);
        s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, 0 /* NETLINK_ROUTE */);
        REPORT("netlink_socket", err(s >= 0));
        if (s >= 0) close(s);
        /* The worker shares the host's network namespace: a unix socket it can make (a stream pair)
         * must not take an abstract name the host's daemons might bind, and a datagram pair (whose
         * sendto goes to any address) must not be made at all. */
        int sv[2] = { -1, -1 };
        int made = socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) == 0;
        REPORT("socketpair_dgram", err(made));
        if (made) { close(sv[0]); close(sv[1]); }
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
            struct sockaddr_un a = { .sun_family = AF_UNIX };
            memcpy(a.sun_path, "\0skillhost-hostile", 19);
            REPORT("bind_abstract", err(bind(sv[0], (struct sockaddr *)&a, offsetof(struct sockaddr_un, sun_path) + 19) == 0));
            REPORT("connect_abstract", err(connect(sv[1], (struct sockaddr *)&a, offsetof(struct sockaddr_un, sun_path) + 19) == 0));
            close(sv[0]);
            close(sv[1]);
        } else {
            REPORT("bind_abstract", errno);
            REPORT("connect_abstract", errno);
        }
    }
    REPORT("user_namespace", err(unshare(CLONE_NEWUSER) == 0));
    snprintf(path, sizeof path, "%s/null-device", data);
    {
        int ok = mknod(path, S_IFCHR | 0600, makedev(1, 3)) == 0;
        REPORT("device_node", err(ok));
        if (ok) unlink(path);
    }
    REPORT("etc_shadow", read_file("/etc/shadow"));
    used += (size_t)snprintf(out + used, sizeof out - used, "},\"allowed\":{");

    {
        /* The data folder: create, write, read, rename, mkdir, rmdir, unlink. */
        char a[1200], b[1200], d[1200];
        snprintf(a, sizeof a, "%s/a.txt", data);
        snprintf(b, sizeof b, "%s/b.txt", data);
        snprintf(d, sizeof d, "%s/sub", data);
        int e = 0;
        int fd = open(a, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0) e = errno;
        else { if (write(fd, "data", 4) != 4) e = errno; close(fd); }
        if (!e && rename(a, b) != 0) e = errno;
        if (!e) e = read_file(b);
        if (!e && mkdir(d, 0700) != 0) e = errno;
        if (!e && rmdir(d) != 0) e = errno;
        if (!e && unlink(b) != 0) e = errno;
        REPORT("data_folder", e);
    }
    {
        Dl_info info;
        REPORT("own_file", dladdr((void *)invoke, &info) && info.dli_fname ? read_file(info.dli_fname) : ENOENT);
    }
    {
        size_t size = 16u << 20;
        char *m = malloc(size);
        if (m) { memset(m, 1, size); free(m); }
        REPORT("allocate", m ? 0 : ENOMEM);
    }
    {
        struct timespec ts;
        REPORT("clock", err(clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_sec > 0));
    }
    REPORT("time_zone_data", read_file("/usr/share/zoneinfo/UTC"));
    snprintf(path, sizeof path, "%s/hostile-granted", granted);
    REPORT("granted_folder", write_read(path));
    REPORT("granted_port", connect_port(atoi(port)));
    used += (size_t)snprintf(out + used, sizeof out - used, "}}");
#undef REPORT
    call->complete(call, SKH_STATUS_OK, out, used, "tried");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY, "fixture.hostile",
                   "Tries every sandbox escape and the allowed actions, and reports the errno of each.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.hostile.peek",
                   "Tries to read a file outside its grants and to see a secret variable of the host.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.hostile.ok",
                   "Answers {\"ok\":true} at once.", "{\"type\":\"object\"}", NULL),
};

static const char *const network[] = { "127.0.0.1:9", NULL };
static const skh_permissions permissions = {
    .struct_size = sizeof(skh_permissions),
    .network = network,
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.hostile",
    .name = "Hostile",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Tries to escape its worker's sandbox and reports what worked.",
    .intent_count = sizeof intents / sizeof intents[0],
    .intents = intents,
    .invoke = invoke,
    .permissions = &permissions,
};
const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
