/* exit_midcall.c — intent `fixture.exit`: writes a line to stderr and calls exit(0) inside invoke(),
 * without completing: the process ends "cleanly" in the middle of a call. The host must answer
 * "crashed" (not wait for the deadline). `fixture.exit.ok` answers {"ok":true}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skillhost.h"

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.exit.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    fputs("exit fixture: calling exit(0) in the middle of a call\n", stderr);
    exit(0);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.exit",
        .description = "Calls exit(0) inside invoke().",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.exit.ok",
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
    .id = "test.fixture.exit",
    .name = "Calls exit(0) inside invoke().",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Calls exit(0) inside invoke().",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
