/* init_close_stderr.c — a static constructor that closes file descriptor 2 (stderr), then takes
 * 1.5 s to finish loading. The manifest itself is valid: the scan must read it, and the host must wait
 * for it without spinning on the closed stderr pipe (its hangup shows on every poll). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include <unistd.h>

#include "skillhost.h"

__attribute__((constructor)) static void close_stderr_on_load(void)
{
    close(2);
    struct timespec t = { .tv_sec = 1, .tv_nsec = 500000000L };
    while (nanosleep(&t, &t) != 0) {}
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.init_close_stderr",
        .description = "Returns {}.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.initclosestderr",
    .name = "Init closes stderr",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Closes stderr in a static constructor, then loads slowly.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
