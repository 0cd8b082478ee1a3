/* abi_1_0_skill.c — a well-behaved skill compiled against the FROZEN 1.0 header (abi-1.0/skillhost.h,
 * see the Makefile): abi_minor 0, 1.0 struct sizes, no intent versions, no abi_minor_required.
 * This host must load it, serve it at ABI 1.0, and call it.
 *   fixture.abi10.hello  → {"abiBuilt":"1.0","hostMinor":N,"hostStructSize":N,"intent":"…"}
 * It uses only 1.0 services and fields; what the host offers beyond them is invisible to it. */
#include <stdio.h>

#include "skillhost.h"

#if SKH_ABI_VERSION_MINOR != 0
#error "abi_1_0_skill.c must be compiled against the frozen 1.0 header (-I abi-1.0)"
#endif

static void invoke(const skh_call *call)
{
    char out[256];
    int n = snprintf(out, sizeof out, "{\"abiBuilt\":\"1.0\",\"hostMinor\":%u,\"hostStructSize\":%u,\"intent\":\"%s\"}",
                     (unsigned)call->host->abi_minor, (unsigned)call->host->struct_size, call->intent);
    call->complete(call, SKH_STATUS_OK, out, (size_t)n, "hello from a 1.0 skill");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.abi10.hello",
        .description = "Says which host it runs in.",
        .input_schema = "{\"type\":\"object\",\"additionalProperties\":false}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.abi10",
    .name = "ABI 1.0 skill",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Built against the 1.0 header.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void) { return &skill; }
