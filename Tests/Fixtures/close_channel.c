/* close_channel.c — intent `fixture.closechannel`: closes file descriptor 3, which in a worker is its
 * channel to the host (the write end of the reply pipe), then completes. The completion cannot reach
 * the host: the worker must notice the descriptor is gone, say so, and exit; the host must answer
 * "crashed" naming file descriptor 3, and start a fresh worker for the next call. Never run it trusted
 * (in-process, fd 3 is something else). `fixture.closechannel.ok` answers {"ok":true}. */
#include <string.h>
#include <unistd.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.closechannel.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    close(3);
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.closechannel",
                   "Closes file descriptor 3 (a worker's channel to the host), then completes.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.closechannel.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.closechannel", "Closes its worker's channel to the host.",
              "Closes file descriptor 3, a worker's channel to the host.", NULL)
