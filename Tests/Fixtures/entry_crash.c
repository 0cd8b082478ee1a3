/* entry_crash.c — loads cleanly (no static constructor), then dies with SIGSEGV inside
 * skillhost_entry, i.e. in the scan process's second pass, after every file of the batch was loaded.
 * The scan must blame this file alone (naming the entry, not the initializers) and still register the
 * files loaded before and after it. The pointer is read through a volatile object so the compiler
 * must emit a real store (see init_crash.c). */
#include <stddef.h>

#include "fixture_skill.h"

static int *volatile null_pointer = NULL;

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.entry_crash",
        .description = "Would return {}.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

FIXTURE_SKILL_ONLY(SKH_SKILL_THREAD_SAFE, "test.fixture.entrycrash", "Entry crash",
                   "Crashes in skillhost_entry.", NULL)

const skh_skill *skillhost_entry(void)
{
    *null_pointer = 42;
    return &skill;
}
