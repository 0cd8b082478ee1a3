/* sleep_past.c — intent `fixture.sleep`: sleeps 30 s synchronously inside invoke() (blocking the
 * calling thread, ignoring is_cancelled), then completes {"slept":30}. Any deadline shorter than
 * that must end in "timeout" with the worker killed; the long-call tests also use it to keep a call
 * in flight while the host is killed. `fixture.sleep.ok` answers {"ok":true}. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <time.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    struct timespec ts = {30, 0};
    if (strcmp(call->intent, "fixture.sleep.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    call->complete(call, SKH_STATUS_OK, "{\"slept\":30}", 12, "woke up");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.sleep",
                   "Sleeps 30 seconds inside invoke(), then completes.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.sleep.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.sleep", "Sleeps 30 seconds inside invoke(), then completes.",
              "Sleeps 30 seconds inside invoke(), then completes.", NULL)
