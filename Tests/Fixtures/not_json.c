/* not_json.c — intent `fixture.notjson` completes with SKH_STATUS_OK but result bytes that are not
 * JSON (`hello, not json`). The host must report a bad result ("internal"), not pass it on. */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char text[] = "hello, not json";
    call->complete(call, SKH_STATUS_OK, text, sizeof text - 1, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.notjson",
        .description = "Returns text that is not JSON.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.notjson",
    .name = "Not JSON",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Returns a result that is not JSON.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
