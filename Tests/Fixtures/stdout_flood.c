/* stdout_flood.c — intent `fixture.flood`: writes 10 MiB to file descriptor 1 (lines of 1023 'x'),
 * then completes {"bytes":10485760}. The host must keep all of it off its own stdout (which carries
 * exactly one JSON line), drain it so the skill never blocks on a full pipe, and answer within the
 * deadline. `fixture.flood.ok` answers {"ok":true}. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    static char line[1024];
    long written = 0;
    if (strcmp(call->intent, "fixture.flood.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    while (written < 10L * 1024L * 1024L) {
        ssize_t n = write(1, line, sizeof line);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        written += n;
    }
    {
        char result[64];
        int len = snprintf(result, sizeof result, "{\"bytes\":%ld}", written);
        call->complete(call, SKH_STATUS_OK, result, (size_t)len, "flooded stdout");
    }
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.flood",
                   "Writes 10 MiB to stdout, then completes.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.flood.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.flood", "Writes 10 MiB to stdout, then completes.",
              "Writes 10 MiB to stdout, then completes.", NULL)
