/* destructive.c — a well-behaved skill with one DESTRUCTIVE intent, for the policy tests.
 *   fixture.wipe   input {"target": string (required), "password": string marked "secret": true,
 *                  "token": string marked "writeOnly": true}; completes OK with {"wiped": true} and
 *                  the message "wiped". Nothing is really wiped; policy must still ask first.
 *                  Keywords "wipe" / "清空", so `skillhost ask "wipe the cache"` finds it too.
 * Thread-safe: no state at all. */
#include <string.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char ok[] = "{\"wiped\":true}";
    call->complete(call, SKH_STATUS_OK, ok, sizeof ok - 1, "wiped");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_DESTRUCTIVE,
        .name = "fixture.wipe",
        .description = "Pretends to wipe a target; destructive, so policy asks first.",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"target\":{\"type\":\"string\"},"
                        "\"password\":{\"type\":\"string\",\"secret\":true},"
                        "\"token\":{\"type\":\"string\",\"writeOnly\":true}},\"required\":[\"target\"]}",
        .output_schema = "{\"type\":\"object\",\"properties\":{\"wiped\":{\"type\":\"boolean\"}},\"required\":[\"wiped\"]}",
        .confidence = 1.0,
        .keywords = "{\"en\":[\"wipe\"],\"zh\":[\"清空\"]}",
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.destructive",
    .name = "Destructive",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "One destructive intent with secret input fields.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
