/* validate_bad_example.c — intent `fixture.vexample` takes {"text": string} (required), but its
 * second example's input is {"text": 5}: the manifest is refused (bad_manifest, naming the intent,
 * examples[1] and the schema error), by the scan and by validate's manifest check. */
#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.vexample", "Has an example that does not match its own schema.",
                   FIXTURE_TEXT_SCHEMA,
                   "[{\"lang\":\"en\",\"text\":\"say hi\",\"input\":{\"text\":\"hi\"}},"
                   "{\"lang\":\"en\",\"text\":\"say five\",\"input\":{\"text\":5}}]"),
};

FIXTURE_SKILL(0, "test.fixture.vexample", "Bad example", "An example input that breaks the schema.", NULL)
