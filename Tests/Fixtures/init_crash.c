/* init_crash.c — a static constructor that dies with SIGSEGV while the library is being loaded
 * (dlopen), i.e. while the host scans it. The pointer is read through a volatile object so the
 * compiler cannot prove it is NULL and must emit a real store (a store through a literal NULL would
 * be turned into a trap instruction: SIGILL, not SIGSEGV). The manifest itself is valid. */
#include <stddef.h>

#include "skillhost.h"

static int *volatile null_pointer = NULL;

__attribute__((constructor)) static void crash_on_load(void)
{
    *null_pointer = 42;
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.init_crash",
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
    .id = "test.fixture.initcrash",
    .name = "Init crash",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Crashes in a static constructor.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
