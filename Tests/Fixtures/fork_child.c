/* fork_child.c — intent `fixture.fork`: fork()s a child that sleeps 60 s (a copy of the worker, so its
 * command line names the skill's file), then completes {"child":PID}. The child must not outlive the
 * host: the worker's process group is killed when the worker ends. `fixture.fork.ok` answers {"ok":true}. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    char result[64];
    pid_t child;
    if (strcmp(call->intent, "fixture.fork.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    child = fork();
    if (child == 0) {
        /* The child: outlive the call (and the worker, unless someone kills it). */
        sleep(60);
        _exit(0);
    }
    snprintf(result, sizeof result, "{\"child\":%ld}", (long)child);
    call->complete(call, SKH_STATUS_OK, result, strlen(result), child > 0 ? "forked" : "fork failed");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.fork",
                   "Forks a child that sleeps 60 seconds, then answers.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.fork.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.fork", "Forks a child that sleeps 60 seconds, then answers.",
              "Forks a child that sleeps 60 seconds, then answers.", NULL)
