/* segv_invoke.c — intent `fixture.segv`: writes "segv fixture: about to write through a NULL pointer"
 * to stderr, then stores through a NULL pointer inside invoke() (SIGSEGV). The pointer is read through
 * a volatile object so the compiler must emit a real store (a literal NULL store becomes a trap, SIGILL).
 * In a worker the host must answer "crashed", naming SIGSEGV and the stderr line, and keep serving.
 * `fixture.segv.ok` answers {"ok":true}: the next call after the crash works again. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "skillhost.h"

static int *volatile null_pointer = NULL;

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.segv.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    fputs("segv fixture: about to write through a NULL pointer\n", stderr);
    fflush(stderr);
    *null_pointer = 42;
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL); /* not reached */
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.segv",
        .description = "Writes a line to stderr, then dies with SIGSEGV in invoke.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.segv.ok",
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
    .id = "test.fixture.segv",
    .name = "Writes a line to stderr, then dies with SIGSEGV in invoke.",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Writes a line to stderr, then dies with SIGSEGV in invoke.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
