/* abi_minor_required_newer.c — a skill built against a future minor, 1.9, that cannot work without
 * it (abi_minor_required = 9). This host (1.1) must refuse it before calling any of its functions,
 * with a message naming 1.9 and the range the host serves (reason abi_mismatch, kind incompatible). */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_FAILED, NULL, 0, "must never be called by a host older than 1.9");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .name = "fixture.future.only",
        .description = "Never callable here.",
        .input_schema = "{\"type\":\"object\"}",
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = 9,
    .struct_size = sizeof(skh_skill),
    .id = "test.fixture.future",
    .name = "Needs ABI 1.9",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Requires a newer host.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
    .abi_minor_required = 9,
};

const skh_skill *skillhost_entry(void) { return &skill; }
