/* null_result.c — intent `fixture.nullresult` completes SKH_STATUS_OK with result_json NULL and the
 * message "done". skillhost.h says that is the JSON value null, in a worker and in-process alike. */
#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, NULL, 0, "done");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_IDEMPOTENT, "fixture.nullresult", "Completes OK with a NULL result.", "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.nullresult", "Null result", "Completes OK with a NULL result.", NULL)
