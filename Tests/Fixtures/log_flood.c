/* log_flood.c — intent `fixture.logflood`: completes {"ok":true} at once, then, still inside invoke()
 * (on the worker's reader thread), writes 80 log lines of 4000 bytes: more than a pipe holds, so the
 * worker's reader is blocked writing to the host until the host reads. With an input larger than a
 * pipe, the host's next call to the same worker then writes while the worker writes: a host that
 * blocked in that write would never read, and both would wait for ever (no deadline is armed before
 * the frame is sent). `fixture.logflood.ok` answers {"ok":true} without logging. Thread-safe. */
#include <string.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    const skh_host *host = call->host;
    call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, NULL);
    if (strcmp(call->intent, "fixture.logflood.ok") == 0) return;
    static char line[4001];
    memset(line, 'x', 4000);
    line[4000] = 0;
    for (int i = 0; i < 80; i++) host->log(NULL, SKH_LOG_INFO, line);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.logflood",
                   "Completes, then logs 320 KB from inside invoke().", "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.logflood.ok",
                   "Answers {\"ok\":true} at once.", "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.logflood", "Logs more than a pipe holds after completing.",
              "Logs more than a pipe holds after completing.", NULL)
