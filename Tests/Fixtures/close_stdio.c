/* close_stdio.c — intent `fixture.closestdio`: closes file descriptors 1 and 2, then completes
 * {"closed":true}. In-process this would close the host's own stdout and stderr; in a worker only the
 * worker's, and the answer must still arrive (and later calls too). `fixture.closestdio.ok` answers
 * {"ok":true}. */
#include <string.h>
#include <unistd.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    static const char result[] = "{\"closed\":true}";
    if (strcmp(call->intent, "fixture.closestdio.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    close(1);
    close(2);
    call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, "closed fd 1 and 2");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.closestdio",
                   "Closes its stdout and stderr, then answers.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.closestdio.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.closestdio", "Closes its stdout and stderr, then answers.",
              "Closes its stdout and stderr, then answers.", NULL)
