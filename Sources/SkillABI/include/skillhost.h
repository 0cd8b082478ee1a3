/*
 * skillhost.h — the whole contract between the skillhost host and a skill.
 *
 * A skill is a shared library (.so) that exports one C function:
 *
 *     const skh_skill *skillhost_entry(void);
 *
 * Nothing else in this file needs another file to be understood. A skill may be written in C, C++,
 * Swift (through the SkillKit SDK, which fills these structs for you) or anything that can export a C
 * symbol. Only C types and UTF-8 JSON text cross this boundary.
 *
 * ---------------------------------------------------------------------------------------------------
 * Versioning (Docs/ABI.md, "ABI and versioning", has the full rules and the history)
 *
 * The ABI has a MAJOR.MINOR version (SKH_ABI_VERSION_MAJOR / _MINOR below).
 *   - A minor version only ever adds: new fields at the END of a struct, new flag bits, new host
 *     services at the end of skh_host. Every struct that can grow starts with (or carries) a
 *     `struct_size` that the side which allocated it sets to sizeof(the struct it was compiled with).
 *     The reader must not touch a field that lies beyond `struct_size`; such a field counts as 0/NULL.
 *   - A major version changes or removes something. A host serves exactly one major; a skill built for
 *     another major is refused before init(), invoke() or health() is ever called, with a message
 *     naming both. skillhost_entry() itself IS called — it is how the host learns the version — first
 *     in a short-lived scan process (`skillhost-worker`, under a deadline: a crash or a hang there
 *     costs only that process and gets the file refused as crashed_during_scan / timed_out), and
 *     again in the process that will run the skill. So skillhost_entry() and the library's static
 *     constructors must be cheap and free of side effects (see skh_entry_fn below).
 *
 * Negotiation. A host serves every minor from 0 up to its own (1.0–1.3 for this header). A skill says
 * which minor it was built with (abi_minor) and the oldest one it can work with (abi_minor_required,
 * added in 1.1; absent means 0). The host refuses a skill whose abi_minor_required is newer than its
 * own minor, naming both; otherwise the call is served at min(host minor, skill minor). The skill, in
 * turn, learns the host's minor from skh_host.abi_minor and which services exist from
 * skh_host.struct_size (SKH_HOST_HAS below), so a skill built against a newer minor runs on an older
 * host and simply does without the newer services. A host older than 1.1 does not read
 * abi_minor_required: a skill that cannot do without a service checks SKH_HOST_HAS in init and returns
 * non-zero, after logging which service is missing (SkillKit does this for Swift skills).
 *
 *   1.0  the first version.
 *   1.1  skh_skill.abi_minor_required; skh_intent.version (intent versions, "name@N");
 *        skh_host.time_left_ms.
 *   1.2  skh_skill.permissions (skh_permissions: the network, files, environment variables and
 *        programs a skill needs; the host's owner grants them and the host enforces the grants).
 *   1.3  skh_intent.feeds (chain rules: which intents an intent's result can feed, for the agent engine).
 *
 * The host reads, in this order and before anything else: skh_skill.abi_major, .abi_minor,
 * .struct_size. If abi_major differs from the host's, the host reads nothing more.
 *
 * ---------------------------------------------------------------------------------------------------
 * Threading tags used below
 *   [any-thread]   may be called from any thread, including concurrently with itself.
 *   [serialized]   the caller guarantees that no two calls of this function overlap.
 *   [once]         called at most once per process.
 *
 * Lifecycle, in one process (the host's, or a worker process of the host's):
 *   1. dlopen(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE). The library is never unloaded.
 *   2. skillhost_entry()                         [once]  — also run, earlier, in a short-lived scan
 *                                                          process that only reads the struct
 *   3. skill->init(host)                         [once]  — only if non-NULL; before any invoke/health
 *   4. skill->invoke(call) and skill->health(…)  per the tags on each field
 *   There is no "deinit": a process that hosts skills ends by exiting.
 *
 * Deadlines, cancellation and the process. By default a skill runs in a worker process of its own.
 *   - When a call's deadline passes (the caller's --timeout, default 10 s), the host sends SIGTERM to
 *     the worker's process group and SIGKILL after a grace period (config workers.killGraceMs,
 *     default 200 ms); the call ends as "timeout" and the next call starts a new worker.
 *   - When the caller cancels, is_cancelled() turns non-zero and the skill has 500 ms to complete
 *     (with SKH_STATUS_CANCELLED); after that its worker is stopped the same way.
 *   - The worker also ends when it exceeds a limit (address space, open files, CPU seconds per call:
 *     config "workers") or when the host goes away (its channel closes).
 *   So code that runs after a deadline may never get its chance — including the complete() a skill
 *   means to make after seeing is_cancelled(). Keep what the skill writes consistent at every step
 *   (write a temporary file and rename it), and bound your own waits with time_left_ms().
 *   A skill the host's owner marks trusted runs inside the host process instead: it is never stopped;
 *   the host stops waiting, the call stays valid until complete(), and a late completion is dropped.
 *
 * Sizes. Through a worker, one complete() (result and message together) may be up to 64 MiB; larger
 * is reported as "internal" (the host protocol was broken), and a result that is not JSON is quoted
 * by its first 4096 bytes. Each log line and progress message is sent the same way (64 MiB); keep
 * messages to a sentence and log lines to a few KiB — the host prints them whole, one line each.
 * What the skill writes to stdout/stderr is not the result: the host keeps the last 64 KiB for error
 * messages and passes at most 64 KiB per call on to the log. A skill declares at most 1024 intents.
 * In a worker, file descriptors 3 and 4 are the channel to the host (leave them alone), and SIGPIPE
 * is caught by a handler that does nothing: a write to a pipe or socket nobody reads fails with EPIPE
 * instead of ending the process, as in the host; programs the skill executes get the default back.
 *
 * C++. The README's examples use C99 designated initializers ({ .name = … }), which C++ has only
 * since C++20. Before that, value-initialise the structs and assign the fields:
 *     static skh_skill make_skill() { skh_skill s = {}; s.abi_major = SKH_ABI_VERSION_MAJOR; …; return s; }
 *     static const skh_skill the_skill = make_skill();
 *     extern "C" SKH_EXPORT const skh_skill *skillhost_entry(void) { return &the_skill; }
 * Every struct here is plain C (no constructors), so `= {}` zeroes every field not assigned.
 *
 * Rationale: a Swift image cannot be unloaded safely (the Swift runtime keeps pointers into it), so
 * the host never calls dlclose and never asks a skill to tear down. Swapping a skill means a new
 * process, or loading the new file next to the old image.
 */
#ifndef SKILLHOST_H
#define SKILLHOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header. A skill copies these into skh_skill.abi_major/.abi_minor. */
#define SKH_ABI_VERSION_MAJOR 1
#define SKH_ABI_VERSION_MINOR 3

/* The name of the one exported entry symbol (for dlsym). */
#define SKH_ENTRY_SYMBOL "skillhost_entry"

/* Put SKH_EXPORT in front of your definition of skillhost_entry, so it stays visible even when the
 * skill is compiled with -fvisibility=hidden:
 *     SKH_EXPORT const skh_skill *skillhost_entry(void) { return &my_skill; } */
#define SKH_EXPORT __attribute__((visibility("default")))

/* ---------------------------------------------------------------------------------------------- */
/* Status codes: what an invoke completed with.                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* The call succeeded; `result_json` holds the result. */
#define SKH_STATUS_OK            0
/* The input was wrong in a way the schema could not express (for example `from` after `to`).
 * The host reports it as error kind "invalid_input". `message` says which field and why. */
#define SKH_STATUS_INVALID_INPUT 1
/* Something the skill depends on is not there (a file, a server, a credential): "unavailable". */
#define SKH_STATUS_UNAVAILABLE   2
/* The skill gave up because skh_host.is_cancelled() returned non-zero: "cancelled". */
#define SKH_STATUS_CANCELLED     3
/* Any other failure inside the skill: "internal". */
#define SKH_STATUS_FAILED        4
/* Any other value is treated as SKH_STATUS_FAILED. */

/* ---------------------------------------------------------------------------------------------- */
/* Health                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

#define SKH_HEALTH_OK          0 /* ready to serve every intent */
#define SKH_HEALTH_DEGRADED    1 /* serving, but slow or partly broken; `detail` says what */
#define SKH_HEALTH_UNAVAILABLE 2 /* cannot serve now; `detail` says why and what would fix it */
/* Any other value is treated as SKH_HEALTH_UNAVAILABLE. */

/* ---------------------------------------------------------------------------------------------- */
/* Log levels for skh_host.log                                                                     */
/* ---------------------------------------------------------------------------------------------- */

#define SKH_LOG_DEBUG   0
#define SKH_LOG_INFO    1
#define SKH_LOG_WARNING 2
#define SKH_LOG_ERROR   3

/* ---------------------------------------------------------------------------------------------- */
/* Intent flags (skh_intent.flags)                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* Only reads; calling it any number of times changes nothing. */
#define SKH_INTENT_READ_ONLY   (1u << 0)
/* Deletes or overwrites something a person would miss. Policy may ask the person to confirm. */
#define SKH_INTENT_DESTRUCTIVE (1u << 1)
/* Calling it twice with the same input has the same effect as calling it once. */
#define SKH_INTENT_IDEMPOTENT  (1u << 2)
/* Talks to something outside this machine (a web API), so its answers depend on the world. */
#define SKH_INTENT_OPEN_WORLD  (1u << 3)

/* ---------------------------------------------------------------------------------------------- */
/* Surfaces (skh_intent.surfaces): who may call an intent. The host may narrow this, never widen.  */
/* ---------------------------------------------------------------------------------------------- */

#define SKH_SURFACE_HUMAN      (1u << 0) /* a person at a terminal */
#define SKH_SURFACE_AUTOMATION (1u << 1) /* scripts and non-interactive callers */
#define SKH_SURFACE_AGENT      (1u << 2) /* outside LLM agents (MCP) */
#define SKH_SURFACE_ALL        (SKH_SURFACE_HUMAN | SKH_SURFACE_AUTOMATION | SKH_SURFACE_AGENT)

/* Skill flags (skh_skill.flags) */

/* invoke() may be called concurrently from several threads. Without this flag the host never lets
 * two calls of this skill overlap: it starts the next invoke() only after the previous invoke() has
 * returned AND its complete() has been called. */
#define SKH_SKILL_THREAD_SAFE (1u << 0)

struct skh_host;
struct skh_call;

/* ---------------------------------------------------------------------------------------------- */
/* skh_host — services the host offers a skill. Allocated and owned by the host.                   */
/* ---------------------------------------------------------------------------------------------- */
/*
 * The host passes this table to init() and inside every skh_call. It stays valid, unchanged, for
 * the rest of the process. A skill compiled against an older minor sees a prefix of it; a skill
 * compiled against a newer minor must check `struct_size` before using a service added later
 * (offsetof(skh_host, field) + sizeof(field) <= struct_size).
 *
 * `call` arguments: the skh_call the service is used for, or NULL outside a call (in init or health).
 * Passing a call after completing it is a bug in the skill; the host ignores such a call.
 */
typedef struct skh_host {
    uint32_t abi_major;   /* the host's SKH_ABI_VERSION_MAJOR */
    uint32_t abi_minor;   /* the host's SKH_ABI_VERSION_MINOR */
    uint32_t struct_size; /* sizeof(skh_host) as the host was compiled */
    uint32_t reserved0;   /* zero */

    /* Writes one line to the skill's log. `message` is UTF-8, borrowed for the duration of the call.
     * [any-thread] Never blocks for long. */
    void (*log)(const struct skh_call *call, int32_t level, const char *message);

    /* Reports progress of `call`: step `step` of `total` (1-based; total 0 = unknown), with an
     * optional UTF-8 `message` (may be NULL), borrowed for the duration of the call.
     * Where it shows: `skillhost ask` on a terminal (its phase line, "executing INTENT step/total
     * (message)"), and MCP clients that asked for progress (notifications/progress). `skillhost
     * invoke` does not show it. [any-thread] Reports for a completed call are ignored. */
    void (*progress)(const struct skh_call *call, uint32_t step, uint32_t total, const char *message);

    /* Returns non-zero once the host no longer wants the result of `call` (deadline passed, or the
     * caller cancelled). A skill doing long work should check it and complete with
     * SKH_STATUS_CANCELLED. It must still call complete() exactly once. Returns 0 for a NULL call.
     * [any-thread] Cheap. */
    int32_t (*is_cancelled)(const struct skh_call *call);

    /* Reads `key` (UTF-8) from the shared context store. Returns a host-allocated, NUL-terminated
     * UTF-8 JSON text and its length in *out_len (may be NULL), or NULL if the key is not set.
     * The skill owns the returned pointer and must release it with host->free.
     * The value is a snapshot: later writes by others do not change it. [any-thread] */
    char *(*context_get)(const struct skh_call *call, const char *key, size_t *out_len);

    /* Writes `key` = the JSON text `json` (`len` bytes, UTF-8) to the shared context store.
     * Both are borrowed for the duration of the call; the host copies them.
     * Returns 0 on success, non-zero if `json` is not valid JSON or the store refused it. [any-thread] */
    int32_t (*context_set)(const struct skh_call *call, const char *key, const char *json, size_t len);

    /* Releases memory the host handed to the skill (only what context_get returned). [any-thread] */
    void (*free)(void *pointer);

    /* --- 1.1 --- */

    /* Milliseconds left before the host stops waiting for `call` (its deadline), or -1 when the call
     * has no deadline or `call` is NULL; 0 once the deadline has passed. Use it to bound your own
     * waits (an HTTP request, a lock). [any-thread] Cheap. Check SKH_HOST_HAS(host, time_left_ms). */
    int64_t (*time_left_ms)(const struct skh_call *call);
} skh_host;

/* True when the host table `host` has the member `field` (a service added in a later minor than the
 * host's). Use it before calling any service marked with a minor newer than 1.0:
 *     if (SKH_HOST_HAS(host, time_left_ms)) budget = host->time_left_ms(call); */
#define SKH_HOST_HAS(host, field) \
    (offsetof(skh_host, field) + sizeof(((const skh_host *)0)->field) <= (size_t)(host)->struct_size)

/* ---------------------------------------------------------------------------------------------- */
/* skh_call — one invocation. Allocated and owned by the host.                                     */
/* ---------------------------------------------------------------------------------------------- */
/*
 * Lifetime: the call and everything it points to stay valid from the moment invoke() is entered
 * until the skill calls `complete`. After `complete` returns, the skill must not touch the call or
 * anything it points to. If the host stops waiting (deadline, cancellation), the call stays valid
 * until the skill completes it; a late completion is logged and dropped by the host.
 */
typedef struct skh_call {
    uint32_t struct_size; /* sizeof(skh_call) as the host was compiled */
    uint32_t reserved0;   /* zero */
    uint64_t call_id;     /* unique within the process; for logs */

    /* UTF-8, NUL-terminated: which intent, exactly as the registry addresses it: the intent's name for
     * version 1 ("calendar.events.list"), the name, "@" and the version for later versions
     * ("calendar.events.list@2", see skh_intent.version). */
    const char *intent;
    /* UTF-8 JSON object, NUL-terminated, already validated against the intent's input_schema by this
     * host. Still answer input that breaks the schema with SKH_STATUS_INVALID_INPUT rather than crash
     * (another host, or a future one, may not check): `skillhost validate` sends such input. */
    const char *input_json;
    size_t input_len;       /* bytes in input_json, without the NUL */

    /* UTF-8 JSON object, NUL-terminated: what the skill needs to know about its surroundings:
     *   "config":    this skill's section of the host's configuration (object, may be empty)
     *   "dataDir":   a directory this skill may keep files in (created on demand by the skill)
     *   "locale":    BCP 47 tag of the caller, e.g. "zh-CN"
     *   "timeZone":  IANA name, e.g. "Asia/Shanghai"
     *   "now":       RFC 3339 instant the request counts as "now" (injectable for tests)
     *   "caller":    "human" | "automation" | "agent"
     * Unknown members must be ignored: later minors may add some. */
    const char *context_json;
    size_t context_len;

    const skh_host *host; /* the services table; same pointer init() received */

    /* Completes the call. The skill MUST call it exactly once per invoke, from any thread, before or
     * after invoke() returns.
     *   status == SKH_STATUS_OK: `result_json` is a UTF-8 JSON value (`result_len` bytes) that matches
     *       the intent's output_schema; `message` is an optional one-sentence human summary (or NULL).
     *       A NULL `result_json` means the JSON value null (then `result_len` is ignored, and an
     *       output_schema, if any, must accept null). Bytes that are not JSON are reported to the
     *       caller as error kind "internal", a bug in the skill.
     *   otherwise: `result_json` may be NULL (or a JSON object with details); `message` says what went
     *       wrong and, where possible, what would fix it. It should not be NULL.
     * `message` is NUL-terminated UTF-8. Every pointer is borrowed for the duration of complete(); the
     * host copies what it keeps, so the skill may free or reuse its buffers as soon as complete() returns.
     * [any-thread] Calling it a second time for the same call is a bug. The host keeps a completed
     * call's memory alive for a while so that it can detect such a second call, log it and ignore it
     * (the first completion wins), but this is a safety net, not a guarantee: do not rely on it. */
    void (*complete)(const struct skh_call *call, int32_t status,
                     const char *result_json, size_t result_len, const char *message);

    /* Opaque to the skill. */
    void *host_data;
} skh_call;

/* ---------------------------------------------------------------------------------------------- */
/* skh_intent — one thing a skill can do. Allocated and owned by the skill, static for the process. */
/* ---------------------------------------------------------------------------------------------- */
/*
 * All strings are UTF-8, NUL-terminated, and must stay valid and unchanged for the rest of the
 * process (string literals, or memory the skill never frees). JSON members are JSON text.
 *
 * The entries of skh_skill.intents all have the same struct_size, and the host steps through the
 * array by intents[0].struct_size bytes (not by its own sizeof), so the array can grow in later minors.
 */
typedef struct skh_intent {
    uint32_t struct_size; /* sizeof(skh_intent) as the skill was compiled */
    uint32_t flags;       /* SKH_INTENT_* bits */

    /* Dotted lowercase name, unique within the skill: "domain.noun[.verb]", e.g. "calendar.events.list".
     * [a-z0-9_] segments separated by '.', at least two segments. Required (NULL gets the file refused). */
    const char *name;
    const char *description; /* one or two sentences, for people and for LLMs choosing a tool; NULL reads as "" */

    /* JSON Schema, in the subset the host checks before the skill sees the input:
     *   keywords     type, properties, required, additionalProperties, items, enum, const, minimum,
     *                maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, minItems,
     *                maxItems, pattern (a regular expression that must match somewhere in the string;
     *                anchor it with ^…$ to match all of it), format ("date" = YYYY-MM-DD and
     *                "date-time" = RFC 3339 are checked; other formats are accepted and not checked),
     *                anyOf, oneOf, allOf;
     *   annotations  description, title, default, examples, $schema, $id, $comment, readOnly,
     *                deprecated, and "secret": true or "writeOnly": true — on any schema, anywhere
     *                (a property, items, additionalProperties, a branch of allOf/anyOf/oneOf) — which
     *                the host's audit log replaces by "[redacted]".
     * Any other keyword (for example $ref) gets the file refused (bad_manifest): the host does not
     * pretend to check what it does not. The root must be {"type":"object", …}. Required. */
    const char *input_schema;
    /* JSON Schema the result matches, or NULL for "any JSON value". */
    const char *output_schema;

    uint32_t surfaces; /* SKH_SURFACE_* bits; 0 is read as SKH_SURFACE_ALL */
    int32_t priority;  /* when several skills serve one intent, higher priority is tried first (0 = normal) */
    double confidence; /* 0.0–1.0: how well this skill serves the intent; orders equal priorities.
                          0.0 (a zero-initialised struct) is read as "not given", which means 1.0. */

    /* Words and phrases that signal this intent, per language, as a JSON object of BCP 47 language
     * → array of strings, e.g. {"en":["meeting","calendar"],"zh":["会议","日程"]}. May be NULL. */
    const char *keywords;
    /* Example requests, as a JSON array of {"lang":"en","text":"what's on today","input":{…}}
     * where "input" (optional) is a valid input for this intent. May be NULL. */
    const char *examples;

    /* --- 1.1 --- */

    /* The version of this intent's contract (its schemas and meaning); 0 (or a 1.0 skill) is read as 1.
     * A change that would break a caller (a new required field, a removed or retyped one, another
     * meaning) ships as a new entry with the same name and version + 1, keeping the old entry, so a
     * skill may list one name several times with different versions. Callers address "name@N"; a bare
     * "name" means the highest version any registered skill serves. Compatible changes (a new optional
     * input field, a new output field) keep the version. */
    uint32_t version;
    uint32_t reserved1; /* zero */

    /* --- 1.3 --- */

    /* Intents this intent's result can feed, for the agent engine (`skillhost ask`): after this intent
     * runs, the engine may run each named intent with input fields taken from this result. A JSON
     * array of {"intent": NAME, "fields": {FIELD: {"path": PATH, "pick": "earliestDay"|"latestDay"}}}:
     * PATH is dotted, "[*]" for every element of an array ("messages[*].event.start"); the values found
     * there (dates or date-times) are reduced to the earliest or latest day, "YYYY-MM-DD". E.g.
     *   [{"intent":"calendar.events.list","fields":{"from":{"path":"messages[*].event.start","pick":"earliestDay"},
     *                                              "to":{"path":"messages[*].event.start","pick":"latestDay"}}}]
     * The rule applies only when a registered skill serves the named intent; the host's config
     * (agent.chains) may replace it or turn it off. May be NULL. */
    const char *feeds;
} skh_intent;

/* ---------------------------------------------------------------------------------------------- */
/* skh_permissions — what a skill needs beyond computing (1.2). Allocated and owned by the skill,    */
/* static for the process, like skh_skill.                                                          */
/* ---------------------------------------------------------------------------------------------- */
/*
 * A skill runs in a worker process that can reach only what the host's owner GRANTED: a declaration
 * is a request, shown when the skill is installed (`skillhost install` asks for consent) and by
 * `skillhost inspect` / `list`; the owner may grant less or more (config "grants"). Whatever is not
 * granted fails the way the operating system makes it fail (open() returns EACCES, connect()
 * ECONNREFUSED or EACCES, execve() EACCES, fork() EAGAIN), so a skill must treat those errors as
 * "not permitted" and complete with SKH_STATUS_UNAVAILABLE and a message naming what it needed.
 * Declare everything: a skill that declares nothing gets nothing beyond the baseline below.
 *
 * Always allowed, without declaring it: computing and allocating (within the host's limits), the
 * clock, reading the skill's own .so file, read-write in its data folder (skh_call.context_json
 * "dataDir"; the host creates it before the worker starts), read-only system libraries, the Swift
 * runtime and time zone data, threads. Never allowed, whatever is granted: debugging or reading the
 * memory of other processes, signals to processes outside the worker, mounting, loading kernel
 * modules, new namespaces, raw sockets, device nodes.
 *
 * Lists are NULL-terminated arrays of NUL-terminated UTF-8 strings (NULL itself means an empty list),
 * static for the process. Paths and network entries may contain placeholders the HOST fills in from
 * its own configuration when it starts the worker (the skill never sees them resolved here; it sees
 * the real values in its call context and config section):
 *   {home}          the user's home folder
 *   {data}          this skill's data folder (always read-write; useful as a base for sub-paths)
 *   {config_home}   $XDG_CONFIG_HOME (default {home}/.config)
 *   {data_home}     $XDG_DATA_HOME (default {home}/.local/share)
 *   {cache_home}    $XDG_CACHE_HOME (default {home}/.cache)
 *   {state_home}    $XDG_STATE_HOME (default {home}/.local/state)
 *   {config:KEY}    the member KEY of this skill's own config section (skh_call.context_json "config";
 *                   KEY may be dotted, "mail.maildir"), a string or an array of strings, each giving
 *                   one entry. A path like the calendar files a person configures. The entry is
 *                   exactly the placeholder: "{config:calendars}". An absent member gives no entry.
 * A path entry is an absolute path or starts with a placeholder other than {config:…} followed by
 * "/…" ("{home}/.netrc"); a folder covers everything below it. Access is checked on the real file,
 * through symbolic links.
 */

/* skh_permissions.flags */

/* The skill runs programs (execve, fork, posix_spawn, system). Without it those fail with EACCES /
 * EAGAIN, and the worker cannot create processes, only threads. Granting it lets programs run with the
 * skill's other grants (they inherit the sandbox), and execute rights on the system folders. */
#define SKH_PERMISSION_PROGRAMS (1u << 0)

typedef struct skh_permissions {
    uint32_t struct_size; /* sizeof(skh_permissions) as the skill was compiled; grows like skh_skill */
    uint32_t flags;       /* SKH_PERMISSION_* bits */

    /* Outbound TCP connections: "HOST:PORT" ("api.open-meteo.com:443", "[::1]:8080"), "*:PORT" (any
     * host), or "{config:KEY}" where the config member is a URL ("https://host:8443/v1", the port from
     * the scheme when absent: http 80, https 443) or "HOST:PORT". NULL or empty: no network at all
     * (the worker's sandbox refuses every socket it would make).
     * Enforcement is by PORT only: a grant of "example.com:443" lets the skill connect to port 443 of
     * any address (the host name is shown to the owner, not checked: DNS answers are the skill's to
     * choose). Binding and listening are never allowed. UDP (DNS) is not filtered when any port is
     * granted. */
    const char *const *network;

    /* Files and folders the skill reads (beyond its data folder): "{config:calendars}",
     * "{home}/Mail", "/usr/share/dict/words". */
    const char *const *read;

    /* Files and folders the skill creates, writes, renames and removes in (beyond its data folder). A
     * file or folder must exist before the worker starts (the host does not create them). */
    const char *const *write;

    /* Names of environment variables the skill reads ("HTTPS_PROXY", "MY_API_TOKEN"). The worker
     * starts with a short fixed environment (PATH, LANG, LC_*, TZ, HOME and TMPDIR set to the data
     * folder) plus the granted names that the host has set; every other variable of the host (its
     * secrets) is absent, also from /proc/self/environ. */
    const char *const *environment;
} skh_permissions;

/* ---------------------------------------------------------------------------------------------- */
/* skh_skill — what skillhost_entry() returns. Allocated and owned by the skill, static.            */
/* ---------------------------------------------------------------------------------------------- */
typedef struct skh_skill {
    /* The first three fields never move, in any version. */
    uint32_t abi_major;   /* SKH_ABI_VERSION_MAJOR the skill was compiled with */
    uint32_t abi_minor;   /* SKH_ABI_VERSION_MINOR the skill was compiled with */
    uint32_t struct_size; /* sizeof(skh_skill) as the skill was compiled */
    uint32_t flags;       /* SKH_SKILL_* bits */

    /* Identity. UTF-8, NUL-terminated, static for the process (like everything in this struct).
     * id, name, version and category are required: NULL (or a value of the wrong shape) gets the file
     * refused as bad_manifest, naming the field. vendor and description may be NULL (read as "").
     * Every string the host shows a person is shown with control characters escaped. */
    const char *id;          /* Required. reverse-DNS, lowercase, two or more parts: "com.example.calendar";
                                matches ^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)+$ */
    const char *name;        /* Required, non-empty. human name: "Calendar" */
    const char *version;     /* Required. semantic version 2.0.0: "1.4.2", "2.0.0-beta.1" */
    const char *category;    /* Required. one lowercase word: "productivity", "weather", "communication", … */
    const char *vendor;      /* who ships it: "Example Corp"; may be NULL. Named in error hints ("report it to …") */
    const char *description; /* one or two sentences; may be NULL */

    /* The compiler that built the skill's Swift code, as "swift-MAJOR.MINOR" (for example "swift-6.3"),
     * or NULL for skills without Swift code. Swift has no stable ABI on Linux: the host refuses a Swift
     * skill built by another Swift version than its own. C skills set NULL and are never refused for it. */
    const char *toolchain;

    uint32_t intent_count;     /* at least 1, at most 1024 */
    uint32_t reserved0;        /* zero */
    const skh_intent *intents; /* intent_count entries, each with its own struct_size */

    /* Called once, after the host has read this struct and before any invoke or health, with the
     * host's service table (valid for the rest of the process). Returns 0 on success; non-zero makes
     * the host refuse the skill (error kind "load_failed"). May be NULL. [once] */
    int32_t (*init)(const skh_host *host);

    /* Starts one call. Must return promptly (do slow work on a thread of your own, or complete
     * before returning if the work is quick) and must lead to exactly one call->complete(…).
     * [any-thread] if SKH_SKILL_THREAD_SAFE is set, otherwise [serialized]. Required. */
    void (*invoke)(const skh_call *call);

    /* Reports whether the skill can serve now, returning an SKH_HEALTH_* code. May block for up to a
     * few seconds (e.g. to reach a server); the host calls it on a thread of its own and enforces a
     * deadline. `context_json` is the same UTF-8 JSON object an invoke would get as
     * skh_call.context_json (so the skill checks the configuration it would really use), borrowed for
     * the duration of the call; it may be NULL. If `detail` is non-NULL the skill may store in *detail a UTF-8, NUL-terminated JSON
     * object with specifics, e.g. {"message":"reachable","latencyMs":12}, allocated by the skill and
     * released by the host with skill->release (also when it arrives after the host stopped waiting).
     * "message" is what `skillhost health` shows in its MESSAGE column (and list --json as
     * healthDetail.message); "latencyMs", if given, replaces the time the host measured; the whole
     * object is kept with the probe. Without a message the host shows "ok" or the code returned.
     * May be NULL (then the skill counts as healthy).
     * [serialized] with itself (a host that gave up waiting does not call it again until it returns);
     * it may run at the same time as invoke() calls. */
    int32_t (*health)(const skh_host *host, const char *context_json, char **detail);

    /* Releases memory the skill handed to the host (only what health stored in *detail).
     * May be NULL only if health never stores a detail. [any-thread] */
    void (*release)(void *pointer);

    /* --- 1.1 --- */

    /* The oldest host minor (of abi_major) this skill works with: 0 if it uses nothing newer than 1.0,
     * or the minor that added a field or service it cannot do without. A 1.1+ host refuses the skill
     * when this is newer than the host's own minor; see "Negotiation" at the top. At most abi_minor. */
    uint32_t abi_minor_required;
    uint32_t reserved1; /* zero */

    /* --- 1.2 --- */

    /* What the skill needs beyond computing (see skh_permissions above): read by the host from the scan
     * process, shown to the owner, enforced only as far as the owner grants it. NULL: nothing. A skill
     * built for 1.0 or 1.1 declares nothing. Static for the process; the host reads it once per scan,
     * before init is called, and never from the worker that serves calls (the sandbox is in force
     * before the skill's code runs there). Setting it does not require a 1.2 host: an older host
     * ignores it, and then enforces nothing (keep abi_minor_required below 2 unless the skill must not
     * run unsandboxed). */
    const skh_permissions *permissions;
} skh_skill;

/* The one symbol a skill exports. Returns a pointer to a static skh_skill, the same one every call.
 * Must not fail, block, or depend on anything the host has not yet provided: it runs in the scan
 * process (which only reads the struct) as well as in the process that runs the skill, so it must
 * not start threads, open connections or write files — do that in init(). [once per process]
 * A NULL return, or a struct_size smaller than the fields the host needs, gets the file refused.
 * Fields that lie beyond a (smaller, older) struct_size count as NULL / 0. */
typedef const skh_skill *(*skh_entry_fn)(void);

#if !defined(__swift__) && !defined(SKH_NO_ENTRY_DECLARATION)
/* Declared here so that a definition with the wrong signature fails to compile. */
SKH_EXPORT const skh_skill *skillhost_entry(void);
#endif

/* Numbers: the host never calls setlocale(), so LC_NUMERIC stays "C" in the host process. A skill that
 * changes the process locale must not, and a skill that formats JSON numbers with printf should still
 * not assume the locale of a process it does not own (use uselocale() per thread, or format by hand). */

#ifdef __cplusplus
}
#endif

#endif /* SKILLHOST_H */
