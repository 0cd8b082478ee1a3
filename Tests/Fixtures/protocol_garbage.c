/* protocol_garbage.c — intent `fixture.garbage`: writes bytes that are not a frame (a length of
 * 0xffffffff, then text) to file descriptor 3, which in a worker is its channel to the host, then
 * completes normally. The host must answer "internal" (the worker broke the protocol), kill that
 * worker, and start a fresh one for the next call. Never run it trusted (in-process, fd 3 is something
 * else). `fixture.garbage.ok` answers {"ok":true}. */
#include <string.h>
#include <unistd.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char garbage[] = "\xff\xff\xff\xffthis is not a frame";
    if (strcmp(call->intent, "fixture.garbage.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    if (write(3, garbage, sizeof garbage - 1) < 0) {
        /* not in a worker: nothing to break */
    }
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.garbage",
        .description = "Writes bytes that are not a frame to file descriptor 3.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.garbage.ok",
        .description = "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.garbage",
    .name = "Writes bytes that are not a frame to file descriptor 3.",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Writes bytes that are not a frame to file descriptor 3.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
