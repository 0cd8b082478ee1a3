/* progress.c — intent `fixture.progress`: reports progress 1/3, 2/3 and 3/3 through host->progress,
 * writes {"steps":3} to the shared context under the key "fixture.progress" through
 * host->context_set, then completes OK with {"steps":3,"contextSet":true|false}. Synchronous. */
#include <stddef.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    static const char value[] = "{\"steps\":3}";
    static const char ok[] = "{\"steps\":3,\"contextSet\":true}";
    static const char refused[] = "{\"steps\":3,\"contextSet\":false}";
    const skh_host *host = call->host;
    int32_t rc;

    host->progress(call, 1, 3, "step one of three");
    host->progress(call, 2, 3, "step two of three");
    host->progress(call, 3, 3, NULL);
    rc = host->context_set(call, "fixture.progress", value, sizeof value - 1);
    if (rc == 0)
        call->complete(call, SKH_STATUS_OK, ok, sizeof ok - 1, "three steps done");
    else
        call->complete(call, SKH_STATUS_OK, refused, sizeof refused - 1, "three steps done; context_set refused");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_IDEMPOTENT,
        .name = "fixture.progress",
        .description = "Reports three progress steps and writes a context value.",
        .input_schema = "{\"type\":\"object\"}",
        .output_schema = "{\"type\":\"object\",\"properties\":{\"steps\":{\"type\":\"integer\"},"
                         "\"contextSet\":{\"type\":\"boolean\"}},\"required\":[\"steps\",\"contextSet\"]}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.progress",
    .name = "Progress",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Reports progress and writes to the shared context.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
