/* slow.c — intent `fixture.slow`, input {"ms": integer}: invoke() returns at once and a detached
 * pthread completes the call after about `ms` milliseconds (asynchronous completion). The thread
 * checks host->is_cancelled every 10 ms and completes SKH_STATUS_CANCELLED as soon as it says so.
 * Result: {"sleptMs": N}. `ms` is clamped to 0..600000; a missing or unreadable `ms` counts as 0. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skillhost.h"

#define MAX_MS 600000L

struct job {
    const skh_call *call;
    long ms;
};

/* The integer after "ms": in the (host-validated, NUL-terminated) input; 0 if there is none. */
static long read_ms(const char *json)
{
    const char *p = json ? strstr(json, "\"ms\"") : NULL;
    long ms = 0;
    if (p == NULL) return 0;
    p += 4;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ':') p++;
    while (*p >= '0' && *p <= '9' && ms <= MAX_MS) ms = ms * 10 + (*p++ - '0');
    return ms > MAX_MS ? MAX_MS : ms;
}

static void *run(void *arg)
{
    struct job job = *(struct job *)arg;
    const skh_call *call = job.call;
    long waited = 0;
    char result[64];
    free(arg);

    while (waited < job.ms) {
        long step = job.ms - waited < 10 ? job.ms - waited : 10;
        struct timespec ts;
        ts.tv_sec = 0;
        ts.tv_nsec = step * 1000000L;
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
        }
        waited += step;
        if (call->host->is_cancelled(call)) {
            snprintf(result, sizeof result, "{\"sleptMs\":%ld}", waited);
            call->complete(call, SKH_STATUS_CANCELLED, result, strlen(result), "cancelled while sleeping");
            return NULL;
        }
    }
    snprintf(result, sizeof result, "{\"sleptMs\":%ld}", waited);
    call->complete(call, SKH_STATUS_OK, result, strlen(result), NULL);
    return NULL;
}

static void invoke(const skh_call *call)
{
    struct job *job = malloc(sizeof *job);
    pthread_t thread;
    pthread_attr_t attr;
    int started = 0;

    if (job != NULL) {
        job->call = call;
        job->ms = read_ms(call->input_json);
        if (pthread_attr_init(&attr) == 0) {
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            started = pthread_create(&thread, &attr, run, job) == 0;
            pthread_attr_destroy(&attr);
        }
    }
    if (!started) {
        free(job);
        call->complete(call, SKH_STATUS_FAILED, NULL, 0, "could not start a thread");
    }
    /* from here on, only the thread touches `call` */
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.slow",
        .description = "Sleeps for ms milliseconds on its own thread, then completes.",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0,"
                        "\"maximum\":600000}},\"required\":[\"ms\"]}",
        .output_schema = "{\"type\":\"object\",\"properties\":{\"sleptMs\":{\"type\":\"integer\"}},"
                         "\"required\":[\"sleptMs\"]}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.slow",
    .name = "Slow",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Completes asynchronously after a delay; honours cancellation.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
