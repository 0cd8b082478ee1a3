/* missing_id.c — a manifest whose id is NULL; everything else is valid. The host must refuse it
 * with a message naming the file and the missing field. */
#include <stddef.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.missing_id",
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
    .id = NULL,
    .name = "Missing id",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Has no id.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
