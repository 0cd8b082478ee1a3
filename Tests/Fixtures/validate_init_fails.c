/* validate_init_fails.c — a valid manifest whose init() returns 3: the skill refuses to start. The
 * scan accepts it (the scan does not call init), but its worker answers load_failed, so validate's
 * load check fails naming the return value, and every check after it is skipped. */
#include "fixture_skill.h"

static int32_t init(const skh_host *host)
{
    (void)host;
    return 3;
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY, "fixture.vinit", "Never served: init fails.", "{\"type\":\"object\"}",
                   "[{\"lang\":\"en\",\"text\":\"anything\",\"input\":{}}]"),
};

FIXTURE_SKILL(0, "test.fixture.vinit", "Init fails", "Its init returns non-zero.", init)
