/* serialized.c — intent `fixture.serialized`, a skill WITHOUT SKH_SKILL_THREAD_SAFE: invoke() sleeps
 * 100 ms synchronously and completes {"maxConcurrent":N}, where N is the largest number of invoke()
 * calls it has seen running at the same time in this process. The host (and the worker) must never
 * overlap two calls of such a skill, so N stays 1 however many callers call at once. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fixture_skill.h"

static volatile int running;
static volatile int max_seen;

static void invoke(const skh_call *call)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    char result[64];
    int now = __sync_add_and_fetch(&running, 1);
    int seen;

    while ((seen = max_seen) < now && !__sync_bool_compare_and_swap(&max_seen, seen, now)) {
    }
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    __sync_sub_and_fetch(&running, 1);
    snprintf(result, sizeof result, "{\"maxConcurrent\":%d}", max_seen);
    call->complete(call, SKH_STATUS_OK, result, strlen(result), NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY, "fixture.serialized",
                   "Sleeps 100 ms and reports how many of its calls ever overlapped.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(0 /* not thread-safe: calls must be serialized */, "test.fixture.serialized", "Serialized",
              "A skill that is not thread-safe.", NULL)
