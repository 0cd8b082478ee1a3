/* duplicate_id_c.c — the same id AND the same version (2.0.0) as duplicate_id_b.c, intent fixture.dup_c:
 * two different builds claiming to be one version. The first file by name (b) wins; this one is refused
 * as duplicate_id, naming both files. */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char result[] = "{\"from\":\"c\"}";
    call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.dup_c",
        .description = "Returns {\"from\":\"c\"}.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.dup",
    .name = "Duplicate id (c)",
    .version = "2.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Shares its id with another fixture.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
