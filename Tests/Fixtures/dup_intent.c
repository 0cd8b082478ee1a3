/* dup_intent.c — declares the intent `fixture.dup_intent` twice in one skill (intent names must be
 * unique within a skill); everything else, including both entries, is valid. */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.dup_intent",
        .description = "Would return {}.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.dup_intent",
        .description = "The same name again.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.dupintent",
    .name = "Duplicate intent",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Declares one intent name twice.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
