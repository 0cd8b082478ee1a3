/* loop_forever.c — intent `fixture.loop`: spins forever inside invoke() (100 % CPU, never returns,
 * never completes, never checks is_cancelled). The host must answer "timeout" at the deadline and
 * kill the worker (SIGTERM, then SIGKILL); with workers.cpuSecondsPerCall set below the deadline, the
 * CPU limit ends it first ("crashed", naming SIGXCPU). `fixture.loop.ok` answers {"ok":true}. */
#include <string.h>

#include "skillhost.h"

static volatile unsigned long spins;

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.loop.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    for (;;)
        spins++;
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.loop",
        .description = "Spins forever inside invoke() without ever completing.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.loop.ok",
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
    .id = "test.fixture.loop",
    .name = "Spins forever inside invoke() without ever completing.",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Spins forever inside invoke() without ever completing.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
