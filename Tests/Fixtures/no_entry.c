/* no_entry.c — a valid shared library and a complete skh_skill, but the exported function is
 * misspelled (`skillhost_entrypoint`), so there is no `skillhost_entry` symbol: the host must report
 * that the file is not a skill (no entry symbol) instead of crashing or ignoring it silently. */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.no_entry",
        .description = "Would return {}.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.noentry",
    .name = "No entry",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Exports the wrong symbol name.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entrypoint(void);
const skh_skill *skillhost_entrypoint(void) { return &skill; }
