/* serialized.c — intent `fixture.serialized`, a skill WITHOUT SKH_SKILL_THREAD_SAFE: invoke() sleeps
 * 100 ms synchronously and completes {"maxConcurrent":N}, where N is the largest number of invoke()
 * calls it has seen running at the same time in this process. The host (and the worker) must never
 * overlap two calls of such a skill, so N stays 1 however many callers call at once. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "skillhost.h"

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
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY,
        .name = "fixture.serialized",
        .description = "Sleeps 100 ms and reports how many of its calls ever overlapped.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = 0, /* not thread-safe: calls must be serialized */
    .id = "test.fixture.serialized",
    .name = "Serialized",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "A skill that is not thread-safe.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
