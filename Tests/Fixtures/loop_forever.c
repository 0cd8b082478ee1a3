/* loop_forever.c — intent `fixture.loop`: spins forever inside invoke() (100 % CPU, never returns,
 * never completes, never checks is_cancelled). The host must answer "timeout" at the deadline and
 * kill the worker (SIGTERM, then SIGKILL); with workers.cpuSecondsPerCall set below the deadline, the
 * CPU limit ends it first ("crashed", naming SIGXCPU). `fixture.loop.ok` answers {"ok":true}. */
#include <string.h>

#include "fixture_skill.h"

static volatile unsigned long spins;

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.loop.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    for (;;)
        spins++;
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.loop",
                   "Spins forever inside invoke() without ever completing.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.loop.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.loop", "Spins forever inside invoke() without ever completing.",
              "Spins forever inside invoke() without ever completing.", NULL)
