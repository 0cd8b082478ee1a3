/* segv_invoke.c — intent `fixture.segv`: writes "segv fixture: about to write through a NULL pointer"
 * to stderr, then stores through a NULL pointer inside invoke() (SIGSEGV). The pointer is read through
 * a volatile object so the compiler must emit a real store (a literal NULL store becomes a trap, SIGILL).
 * In a worker the host must answer "crashed", naming SIGSEGV and the stderr line, and keep serving.
 * `fixture.segv.ok` answers {"ok":true}: the next call after the crash works again. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "fixture_skill.h"

static int *volatile null_pointer = NULL;

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.segv.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    fputs("segv fixture: about to write through a NULL pointer\n", stderr);
    fflush(stderr);
    *null_pointer = 42;
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL); /* not reached */
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.segv",
                   "Writes a line to stderr, then dies with SIGSEGV in invoke.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.segv.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.segv", "Writes a line to stderr, then dies with SIGSEGV in invoke.",
              "Writes a line to stderr, then dies with SIGSEGV in invoke.", NULL)
