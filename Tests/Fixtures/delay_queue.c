/* delay_queue.c — intent `fixture.delay`, input {"ms": integer}: a THREAD-SAFE skill that completes
 * each call after `ms` milliseconds without a thread per call. invoke() only puts the call on a
 * queue and returns; one timer thread (started by init) completes the calls in deadline order, the
 * way an event loop serving many slow requests (HTTP, a database) would. A thousand calls in flight
 * cost this skill a thousand queue entries, so a test of the host's concurrency measures the host.
 * The result is {"sleptMs": ms}. Calls still queued when cancelled complete with SKH_STATUS_CANCELLED
 * at their next check (every 10 ms). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture_skill.h"

#define MAX_MS 600000L

struct entry {
    const skh_call *call;
    long ms;
    uint64_t due_ns;
    struct entry *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static struct entry *queue; /* sorted by due_ns */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

static void finish(struct entry *e, int32_t status)
{
    char result[64];
    snprintf(result, sizeof result, "{\"sleptMs\":%ld}", e->ms);
    e->call->complete(e->call, status, result, strlen(result), status == SKH_STATUS_OK ? NULL : "cancelled while queued");
    free(e);
}

static void *timer_loop(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (queue == NULL) pthread_cond_wait(&wake, &lock);
        uint64_t now = now_ns();
        /* Complete everything due, and anything cancelled. */
        struct entry **link = &queue;
        struct entry *done = NULL;
        while (*link != NULL) {
            struct entry *e = *link;
            int cancelled = e->call->host->is_cancelled(e->call);
            if (e->due_ns <= now || cancelled) {
                *link = e->next;
                e->next = done;
                e->ms = cancelled ? -1 : e->ms;
                done = e;
            } else {
                link = &e->next;
            }
        }
        if (done != NULL) {
            pthread_mutex_unlock(&lock);
            while (done != NULL) {
                struct entry *next = done->next;
                finish(done, done->ms < 0 ? SKH_STATUS_CANCELLED : SKH_STATUS_OK);
                done = next;
            }
            pthread_mutex_lock(&lock);
            continue;
        }
        /* Sleep until the earliest is due, at most 10 ms (to notice cancellations). */
        uint64_t until = queue->due_ns;
        if (until > now + 10000000u) until = now + 10000000u;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t abs_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + (until - now);
        ts.tv_sec = (time_t)(abs_ns / 1000000000u);
        ts.tv_nsec = (long)(abs_ns % 1000000000u);
        pthread_cond_timedwait(&wake, &lock, &ts);
    }
    return NULL;
}

static int32_t init(const skh_host *host)
{
    pthread_t thread;
    (void)host;
    if (pthread_create(&thread, NULL, timer_loop, NULL) != 0) return 1;
    pthread_detach(thread);
    return 0;
}

static void invoke(const skh_call *call)
{
    struct entry *e = malloc(sizeof *e);
    if (e == NULL) {
        call->complete(call, SKH_STATUS_FAILED, NULL, 0, "out of memory");
        return;
    }
    e->call = call;
    e->ms = read_ms(call->input_json);
    e->due_ns = now_ns() + (uint64_t)e->ms * 1000000u;
    pthread_mutex_lock(&lock);
    struct entry **link = &queue;
    while (*link != NULL && (*link)->due_ns <= e->due_ns) link = &(*link)->next;
    e->next = *link;
    *link = e;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.delay",
        .description = "Completes after ms milliseconds, from one timer thread (no thread per call).",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0,"
                        "\"maximum\":600000}},\"required\":[\"ms\"]}",
        .output_schema = "{\"type\":\"object\",\"properties\":{\"sleptMs\":{\"type\":\"integer\"}},"
                         "\"required\":[\"sleptMs\"]}",
        .confidence = 1.0,
    },
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.delay", "Delay queue fixture",
              "Completes calls after a delay from one timer thread.", init)
