/* toolchain_old.c — declares itself built by another Swift toolchain ("swift-5.9"), as a Swift skill
 * from an older compiler would. Swift has no stable ABI on Linux, so the host must refuse it
 * (reason toolchain_mismatch, kind incompatible) naming both toolchains. Everything else is valid. */
#include "skillhost.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {{
    .struct_size = sizeof(skh_intent),
    .flags = SKH_INTENT_READ_ONLY,
    .name = "fixture.toolchain_old",
    .description = "Never callable: the file is refused.",
    .input_schema = "{\"type\":\"object\"}",
}};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .id = "test.fixture.toolchainold",
    .name = "Old toolchain",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Claims to be built by Swift 5.9.",
    .toolchain = "swift-5.9",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

SKH_EXPORT const skh_skill *skillhost_entry(void) { return &skill; }
