/* error_code.c — completes with an error status and a specific message, which the host must pass
 * on unchanged with the matching error kind:
 *   fixture.fail         SKH_STATUS_FAILED       "disk quota exceeded on /var/fixture"   → "internal"
 *   fixture.unavailable  SKH_STATUS_UNAVAILABLE  "fixture backend is not reachable ..."  → "unavailable" */
#include <string.h>

#include "skillhost.h"

#define UNAVAILABLE_MESSAGE "fixture backend is not reachable at fixture.invalid:1; start it and retry"

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.unavailable") == 0)
        call->complete(call, SKH_STATUS_UNAVAILABLE, NULL, 0, UNAVAILABLE_MESSAGE);
    else
        call->complete(call, SKH_STATUS_FAILED, NULL, 0, "disk quota exceeded on /var/fixture");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.fail",
        .description = "Always fails with SKH_STATUS_FAILED.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.unavailable",
        .description = "Always fails with SKH_STATUS_UNAVAILABLE.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.errorcode",
    .name = "Error codes",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Fails on purpose with given statuses and messages.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
