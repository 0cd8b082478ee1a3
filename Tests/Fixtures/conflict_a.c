/* conflict_a.c — a valid skill (id test.fixture.conflicta) that declares intent `fixture.shared`,
 * like conflict_b.c, with priority 10; it returns {"from":"a"}. Routing must pick
 * conflict_a (priority 10) over conflict_b (priority 0). */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char result[] = "{\"from\":\"a\"}";
    call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.shared",
        .description = "Returns {\"from\":\"a\"}.",
        .input_schema = "{\"type\":\"object\"}",
        .priority = 10,
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.conflicta",
    .name = "Conflict (a)",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Serves fixture.shared with priority 10.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
