/* slow_health.c — intent `fixture.slowhealth` answers {"ok":true}; health() sleeps 500 ms and answers
 * ok with the message "max N concurrent", N being the largest number of health() calls it has seen
 * running at the same time. health() is [serialized] with itself in the header, also after the host
 * stopped waiting for it: N must stay 1 however the host probes (issue 12, item 19). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture_skill.h"

static volatile int running;
static volatile int max_seen;

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, NULL);
}

static int32_t health(const skh_host *host, const char *context_json, char **detail)
{
    struct timespec ts = {0, 500 * 1000 * 1000};
    int now = __sync_add_and_fetch(&running, 1);
    int seen;
    (void)host;
    (void)context_json;
    while ((seen = max_seen) < now && !__sync_bool_compare_and_swap(&max_seen, seen, now)) {
    }
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    __sync_sub_and_fetch(&running, 1);
    if (detail) {
        *detail = malloc(64);
        if (*detail) snprintf(*detail, 64, "{\"message\":\"max %d concurrent\"}", max_seen);
    }
    return SKH_HEALTH_OK;
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.slowhealth",
                   "Answers ok; its health check takes 500 ms.", "{\"type\":\"object\"}", NULL),
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.slowhealth",
    .name = "Slow health",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "A health check slower than the probe deadline.",
    .intent_count = sizeof intents / sizeof intents[0],
    .intents = intents,
    .invoke = invoke,
    .health = health,
    .release = free,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
