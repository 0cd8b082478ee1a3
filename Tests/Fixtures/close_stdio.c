/* close_stdio.c — intent `fixture.closestdio`: closes file descriptors 1 and 2, then completes
 * {"closed":true}. In-process this would close the host's own stdout and stderr; in a worker only the
 * worker's, and the answer must still arrive (and later calls too). `fixture.closestdio.ok` answers
 * {"ok":true}. */
#include <string.h>
#include <unistd.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char result[] = "{\"closed\":true}";
    if (strcmp(call->intent, "fixture.closestdio.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    close(1);
    close(2);
    call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, "closed fd 1 and 2");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.closestdio",
        .description = "Closes its stdout and stderr, then answers.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.closestdio.ok",
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
    .id = "test.fixture.closestdio",
    .name = "Closes its stdout and stderr, then answers.",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Closes its stdout and stderr, then answers.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
