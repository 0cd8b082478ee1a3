/* protocol_garbage.c — intent `fixture.garbage`: writes bytes that are not a frame (a length of
 * 0xffffffff, then text) to file descriptor 3, which in a worker is its channel to the host, then
 * completes normally. The host must answer "internal" (the worker broke the protocol), kill that
 * worker, and start a fresh one for the next call. Never run it trusted (in-process, fd 3 is something
 * else). `fixture.garbage.ok` answers {"ok":true}. */
#include <string.h>
#include <unistd.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    static const char garbage[] = "\xff\xff\xff\xffthis is not a frame";
    if (strcmp(call->intent, "fixture.garbage.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    if (write(3, garbage, sizeof garbage - 1) < 0) {
        /* not in a worker: nothing to break */
    }
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.garbage",
                   "Writes bytes that are not a frame to file descriptor 3.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.garbage.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.garbage", "Writes bytes that are not a frame to file descriptor 3.",
              "Writes bytes that are not a frame to file descriptor 3.", NULL)
