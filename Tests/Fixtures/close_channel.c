/* close_channel.c — breaks its worker's channel to the host. Never run it trusted (in-process, fds 3
 * and 4 are something else).
 *   fixture.closechannel    closes fd 3 (where the worker writes to the host), then completes. The
 *                           completion cannot reach the host: the worker must notice the descriptor is
 *                           gone, say so, and exit; the host answers "crashed" naming fd 3.
 *   fixture.replacechannel  puts /dev/null on fd 4 (where the worker reads the host's frames) and
 *                           returns without completing. The worker's next read gets an end-of-file
 *                           that is not the host's: it must say fd 4 was replaced (not take the host
 *                           for gone and kill itself), and the host answers "crashed" naming fd 4.
 *   *.ok                    answer {"ok":true}: the next worker serves. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    if (strstr(call->intent, ".ok") != NULL) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    if (strcmp(call->intent, "fixture.replacechannel") == 0) {
        int fd = open("/dev/null", O_RDONLY);
        if (fd >= 0 && fd != 4) {
            dup2(fd, 4);
            close(fd);
        }
        return; /* completes never: the worker ends at its next read */
    }
    close(3);
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.closechannel",
                   "Closes file descriptor 3 (a worker's channel to the host), then completes.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.closechannel.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.replacechannel",
                   "Puts /dev/null on file descriptor 4 (where a worker reads the host's frames).",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.replacechannel.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.closechannel", "Closes its worker's channel to the host.",
              "Closes file descriptor 3, a worker's channel to the host.", NULL)
