/* block_invoke.c — intent `fixture.block`, input {"ms": integer}: blocks the calling thread inside
 * invoke() for `ms` milliseconds (nanosleep, ignoring is_cancelled), then completes {"blockedMs": N}
 * before returning. The ABI says invoke() must return promptly; this is the skill that does not. As
 * a trusted (in-process) skill it holds whichever host thread called it: the MCP tests check that the
 * stdio reader and an HTTP connection's reader go on reading meanwhile. `ms` is clamped to 0..60000. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    const char *p = call->input_json ? strstr(call->input_json, "\"ms\"") : NULL;
    long ms = 0;
    char result[48];
    if (p != NULL) {
        p += 4;
        while (*p == ' ' || *p == ':') p++;
        while (*p >= '0' && *p <= '9' && ms <= 60000) ms = ms * 10 + (*p++ - '0');
    }
    if (ms > 60000) ms = 60000;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    snprintf(result, sizeof result, "{\"blockedMs\":%ld}", ms);
    call->complete(call, SKH_STATUS_OK, result, strlen(result), NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.block",
                   "Blocks inside invoke() for ms milliseconds, then completes.",
                   "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":60000}},\"required\":[\"ms\"]}",
                   NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.block", "Block",
              "Blocks the calling thread inside invoke(), then completes.", NULL)
