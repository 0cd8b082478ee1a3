/* exit_midcall.c — intent `fixture.exit`: writes a line to stderr and calls exit(0) inside invoke(),
 * without completing: the process ends "cleanly" in the middle of a call. The host must answer
 * "crashed" (not wait for the deadline). `fixture.exit.ok` answers {"ok":true}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_skill.h"

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
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.exit",
                   "Calls exit(0) inside invoke().",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.exit.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.exit", "Calls exit(0) inside invoke().",
              "Calls exit(0) inside invoke().", NULL)
