/* init_hang.c — a static constructor that never returns (sleeps forever in pause()), so dlopen of
 * this file never returns: the scan must time out, kill the worker and carry on with other files.
 * The manifest itself is valid. */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "skillhost.h"

__attribute__((constructor)) static void hang_on_load(void)
{
    for (;;) pause();
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.init_hang",
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
    .id = "test.fixture.inithang",
    .name = "Init hang",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Hangs in a static constructor.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
