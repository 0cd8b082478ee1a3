/* fallback_ok.c — the second skill (priority 1) for `fixture.lookup` and `fixture.append` (see
 * fallback_crash.c): answers {"answeredBy":"fallback_ok","intent":…}. */
#include <string.h>
#include <stdio.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    char buf[128];
    int len = snprintf(buf, sizeof buf, "{\"answeredBy\":\"fallback_ok\",\"intent\":\"%s\"}", call->intent);
    call->complete(call, SKH_STATUS_OK, buf, (size_t)len, "answered by the second skill");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.lookup",
        .description = "Looks something up.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
        .priority = 1,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = 0,
        .name = "fixture.append",
        .description = "Appends something.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
        .priority = 1,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR, .abi_minor = SKH_ABI_VERSION_MINOR, .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.fallback.ok", .name = "Second choice", .version = "1.0.0", .category = "testing",
    .vendor = "skillhost tests", .description = "Answers the intents fallback_crash.c crashes in.",
    .intent_count = 2, .intents = intents, .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
