/* sleep_past.c — intent `fixture.sleep`: sleeps 30 s synchronously inside invoke() (blocking the
 * calling thread, ignoring is_cancelled), then completes {"slept":30}. Any deadline shorter than
 * that must end in "timeout" with the worker killed; the long-call tests also use it to keep a call
 * in flight while the host is killed. `fixture.sleep.ok` answers {"ok":true}. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <time.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    struct timespec ts = {30, 0};
    if (strcmp(call->intent, "fixture.sleep.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    call->complete(call, SKH_STATUS_OK, "{\"slept\":30}", 12, "woke up");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.sleep",
        .description = "Sleeps 30 seconds inside invoke(), then completes.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.sleep.ok",
        .description = "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.sleep",
    .name = "Sleeps 30 seconds inside invoke(), then completes.",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Sleeps 30 seconds inside invoke(), then completes.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
