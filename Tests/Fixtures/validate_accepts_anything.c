/* validate_accepts_anything.c — intent `fixture.vanything`, input {"count": integer 1..10} (required):
 * completes OK with {"done":true} whatever the input, never looking at it. Through the host that is
 * harmless (the host checks the schema first), but `skillhost validate` sends wrong input straight to
 * the skill and must fail its wrong-input check ("answered ok"). Everything else about it is fine. */
#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{\"done\":true}", 13, "done, without reading the input");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.vanything", "Answers ok to any input.",
                   "{\"type\":\"object\",\"properties\":{\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10}},"
                   "\"required\":[\"count\"]}",
                   "[{\"lang\":\"en\",\"text\":\"do it three times\",\"input\":{\"count\":3}}]"),
};

FIXTURE_SKILL(0, "test.fixture.vanything", "Accepts anything", "Never checks its input.", NULL)
