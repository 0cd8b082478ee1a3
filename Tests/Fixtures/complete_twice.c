/* complete_twice.c — intent `fixture.complete_twice` calls complete() twice for one call: first
 * SKH_STATUS_OK with {"completion":1}, then SKH_STATUS_FAILED with "second completion". The host must
 * keep the first, ignore (and log) the second. Both completions happen synchronously inside invoke();
 * the function pointer and the call pointer are saved before the first one, so the skill itself does
 * not read the call after completing it (it only passes the stale pointer back, which is the bug). */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char first[] = "{\"completion\":1}";
    static const char second[] = "{\"completion\":2}";
    void (*complete)(const skh_call *, int32_t, const char *, size_t, const char *) = call->complete;

    complete(call, SKH_STATUS_OK, first, sizeof first - 1, "first completion");
    complete(call, SKH_STATUS_FAILED, second, sizeof second - 1, "second completion");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.complete_twice",
        .description = "Completes each call twice.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.completetwice",
    .name = "Complete twice",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Calls complete() twice per call.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
