/* entry_rewrites_progress.c — HOSTILE to the scan's hang detection: its entry maps the scan process's
 * progress word (fd 5, see skh_progress_entry) and keeps writing "my entry started just now" into it,
 * every 10 ms, forever. The host reads the word's time once per step and distrusts it, so the entry
 * must still be timed out (about one deadline after the load, at most two), named as the entry, and
 * the files after it read. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.entry_rewrites", "Would return {}.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL_ONLY(SKH_SKILL_THREAD_SAFE, "test.fixture.entryrewrites", "Entry rewrites progress",
                   "Never returns from skillhost_entry, and keeps claiming it just started.", NULL)

const skh_skill *skillhost_entry(void)
{
    volatile uint64_t *word = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE, MAP_SHARED, 5, 0);
    for (;;) {
        if (word != MAP_FAILED) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            uint64_t now_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
            *word = (now_us << 16) | (*word & 0xffff);
        }
        struct timespec t = { .tv_sec = 0, .tv_nsec = 10000000L };
        nanosleep(&t, NULL);
    }
    return &skill;
}
