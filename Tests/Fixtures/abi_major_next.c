/* abi_major_next.c — reports abi_major = SKH_ABI_VERSION_MAJOR + 1; everything else is valid.
 * The host must refuse it ("incompatible") after reading abi_major, naming both majors (it claims 2.0), and must
 * call none of its functions. */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.abi_major_next",
        .description = "Would return {}.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR + 1,
    .abi_minor = 0,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.abimajornext",
    .name = "ABI major next",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Built for the next ABI major.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
