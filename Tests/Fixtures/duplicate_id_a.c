/* duplicate_id_a.c — a valid skill with id "test.fixture.dup", version 1.0.0, intent fixture.dup_a.
 * duplicate_id_b.c has the same id in version 2.0.0 (it wins; this one is listed as shadowed);
 * duplicate_id_c.c has the same id in version 2.0.0 too (same version as b: refused as duplicate_id). */
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
        .name = "fixture.dup_a",
        .description = "Returns {\"from\":\"a\"}.",
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
    .name = "Duplicate id (a)",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Shares its id with another fixture.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
