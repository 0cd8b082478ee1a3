/* abort_invoke.c — intent `fixture.abort`: writes "abort fixture: giving up with abort()" to stderr,
 * then calls abort() inside invoke() (SIGABRT), the way a failed assert() or a C++ terminate ends.
 * The host must answer "crashed" naming SIGABRT. `fixture.abort.ok` answers {"ok":true}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_skill.h"

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
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.abort",
                   "Writes a line to stderr, then calls abort() in invoke.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.abort.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.abort", "Writes a line to stderr, then calls abort() in invoke.",
              "Writes a line to stderr, then calls abort() in invoke.", NULL)
