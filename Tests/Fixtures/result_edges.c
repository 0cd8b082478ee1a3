/* result_edges.c — results the host must not take at face value:
 *   fixture.latin1   completes OK with {"text":"caf\xe9"}: a JSON-looking result that is not UTF-8
 *                    (byte 13 is a Latin-1 é) → `internal`, naming the byte, never a repaired success
 *   fixture.details  fails (SKH_STATUS_FAILED) with a details object as result_json, which the host
 *                    passes on as error.details */
#include <string.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    if (strcmp(call->intent, "fixture.latin1") == 0) {
        static const char result[] = "{\"text\":\"caf\xe9\"}";
        call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, NULL);
    } else {
        static const char details[] = "{\"quotaBytes\":1024,\"path\":\"/var/fixture\"}";
        call->complete(call, SKH_STATUS_FAILED, details, sizeof details - 1, "disk quota exceeded on /var/fixture");
    }
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.latin1", "Returns a result that is not UTF-8.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.details", "Fails with a details object.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.results", "Result edge fixture", "Results the host must check.", NULL)
