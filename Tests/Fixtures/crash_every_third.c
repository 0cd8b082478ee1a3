/* crash_every_third.c — intent `fixture.third`: keeps a call counter in its worker process and calls
 * abort() on every third call (3rd, 6th, … of each worker; a new worker starts counting from 0, so
 * across restarts the pattern stays ok, ok, crash). Other calls answer {"n":N}. Tests: every
 * non-crashing call succeeds, and the skill lands in quarantine at the configured crash count. */
#include <stdio.h>
#include <stdlib.h>

#include "skillhost.h"

static int calls;

static void invoke(const skh_call *call)
{
    int n = ++calls;
    if (n % 3 == 0) {
        fputs("crash_every_third: third call, aborting\n", stderr);
        fflush(stderr);
        abort();
    }
    char buf[32];
    int len = snprintf(buf, sizeof buf, "{\"n\":%d}", n);
    call->complete(call, SKH_STATUS_OK, buf, (size_t)len, NULL);
}

static const skh_intent intents[] = {{
    .struct_size = sizeof(skh_intent),
    .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
    .name = "fixture.third",
    .description = "Answers {\"n\":N}, but aborts on every third call of its worker.",
    .input_schema = "{\"type\":\"object\"}",
    .confidence = 1.0,
}};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR, .abi_minor = SKH_ABI_VERSION_MINOR, .struct_size = sizeof(skh_skill),
    .id = "test.fixture.third", .name = "Crashes every third call", .version = "1.0.0", .category = "testing",
    .vendor = "skillhost tests", .description = "Aborts on every third call of its worker process.",
    .intent_count = 1, .intents = intents, .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
