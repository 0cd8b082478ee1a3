/* init_close_stderr.c — a static constructor that closes file descriptor 2 (stderr), then takes
 * 1.5 s to finish loading. The manifest itself is valid: the scan must read it, and the host must wait
 * for it without spinning on the closed stderr pipe (its hangup shows on every poll). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include <unistd.h>

#include "fixture_skill.h"

__attribute__((constructor)) static void close_stderr_on_load(void)
{
    close(2);
    struct timespec t = { .tv_sec = 1, .tv_nsec = 500000000L };
    while (nanosleep(&t, &t) != 0) {}
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.init_close_stderr", "Returns {}.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.initclosestderr", "Init closes stderr",
              "Closes stderr in a static constructor, then loads slowly.", NULL)
