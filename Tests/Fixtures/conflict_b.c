/* conflict_b.c — a valid skill (id test.fixture.conflictb) that declares intent `fixture.shared`,
 * like conflict_a.c, with priority 0; it returns {"from":"b"}. Routing must pick
 * conflict_a (priority 10) over conflict_b (priority 0). */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char result[] = "{\"from\":\"b\"}";
    call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.shared",
        .description = "Returns {\"from\":\"b\"}.",
        .input_schema = "{\"type\":\"object\"}",
        .priority = 0,
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.conflictb",
    .name = "Conflict (b)",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Serves fixture.shared with priority 0.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
