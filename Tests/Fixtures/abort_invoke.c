/* abort_invoke.c — intent `fixture.abort`: writes "abort fixture: giving up with abort()" to stderr,
 * then calls abort() inside invoke() (SIGABRT), the way a failed assert() or a C++ terminate ends.
 * The host must answer "crashed" naming SIGABRT. `fixture.abort.ok` answers {"ok":true}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.abort.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    fputs("abort fixture: giving up with abort()\n", stderr);
    fflush(stderr);
    abort();
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.abort",
        .description = "Writes a line to stderr, then calls abort() in invoke.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.abort.ok",
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
    .id = "test.fixture.abort",
    .name = "Writes a line to stderr, then calls abort() in invoke.",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Writes a line to stderr, then calls abort() in invoke.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
