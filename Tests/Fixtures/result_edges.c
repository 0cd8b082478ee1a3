/* result_edges.c — results the host must not take at face value:
 *   fixture.latin1   completes OK with {"text":"caf\xe9"}: a JSON-looking result that is not UTF-8
 *                    (byte 13 is a Latin-1 é) → `internal`, naming the byte, never a repaired success
 *   fixture.details  fails (SKH_STATUS_FAILED) with a details object as result_json, which the host
 *                    passes on as error.details */
#include <string.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.latin1") == 0) {
        static const char result[] = "{\"text\":\"caf\xe9\"}";
        call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, NULL);
    } else {
        static const char details[] = "{\"quotaBytes\":1024,\"path\":\"/var/fixture\"}";
        call->complete(call, SKH_STATUS_FAILED, details, sizeof details - 1, "disk quota exceeded on /var/fixture");
    }
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.latin1",
        .description = "Returns a result that is not UTF-8.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.details",
        .description = "Fails with a details object.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.results",
    .name = "Result edge fixture",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Results the host must check.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
