/* bad_schema_type.c — the intent's input_schema is valid JSON but not a valid schema:
 * {"type":"objekt"} (misspelled type, and so not an object root); everything else is valid. */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.bad_schema_type",
        .description = "Would return {}.",
        .input_schema = "{\"type\":\"objekt\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.badschematype",
    .name = "Bad schema type",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Declares a schema of type objekt.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
