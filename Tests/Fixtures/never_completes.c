/* never_completes.c — intent `fixture.never`: invoke() returns without ever calling complete().
 * The host's deadline must turn the call into a "timeout". Declared thread-safe so that one stuck
 * call does not hold back other calls of this skill (a non-thread-safe skill is serialized, and the
 * host waits for completion before the next invoke). */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    (void)call; /* and never complete */
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.never",
        .description = "Never completes.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.nevercompletes",
    .name = "Never completes",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Forgets to complete its calls.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
