/* entry_hang.c — loads in about 0.3 s (a static constructor that sleeps), then never returns from
 * skillhost_entry. A C image has its entry called right after its load with no line to the host in
 * between (the scan process stores the step in its progress word): the scan must time the entry out,
 * name the entry (not the load) and carry on with the other files. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>
#include <unistd.h>

#include "fixture_skill.h"

__attribute__((constructor)) static void load_slowly(void)
{
    struct timespec t = { .tv_sec = 0, .tv_nsec = 300000000L };
    while (nanosleep(&t, &t) != 0) {}
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.entry_hang", "Would return {}.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL_ONLY(SKH_SKILL_THREAD_SAFE, "test.fixture.entryhang", "Entry hang",
                   "Never returns from skillhost_entry.", NULL)

const skh_skill *skillhost_entry(void)
{
    for (;;) pause();
    return &skill;
}
