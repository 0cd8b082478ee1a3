/* fallback_crash.c — the preferred skill (priority 10) for two intents that fallback_ok.c declares
 * too (priority 1), and it crashes (SIGABRT) in both: `fixture.lookup` (read-only, idempotent: a
 * failed call falls back to fallback_ok) and `fixture.append` (neither: never retried elsewhere). */
#include <stdio.h>
#include <stdlib.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    (void)call;
    fputs("fallback_crash: aborting\n", stderr);
    fflush(stderr);
    abort();
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.lookup",
        .description = "Looks something up (crashes).",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
        .priority = 10,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = 0,
        .name = "fixture.append",
        .description = "Appends something: not idempotent (crashes).",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
        .priority = 10,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR, .abi_minor = SKH_ABI_VERSION_MINOR, .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.fallback.crash", .name = "Preferred but crashing", .version = "1.0.0", .category = "testing",
    .vendor = "skillhost tests", .description = "Crashes in every call; the preferred skill for its intents.",
    .intent_count = 2, .intents = intents, .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
