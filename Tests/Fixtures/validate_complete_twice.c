/* validate_complete_twice.c — intent `fixture.vtwice`, input {"text": string} (required, checked):
 * for valid input it completes OK with the input, then calls complete() a second time (FAILED). The
 * intent is neither read-only nor idempotent, so validate calls it once, with its example; its
 * exactly-once check must fail, naming the intent. Wrong input is answered INVALID_INPUT, once. */
#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    const char *text;
    size_t length;
    void (*complete)(const skh_call *, int32_t, const char *, size_t, const char *) = call->complete;
    if (!fixture_text(call, &text, &length)) return;
    complete(call, SKH_STATUS_OK, call->input_json, call->input_len, "first completion");
    complete(call, SKH_STATUS_FAILED, NULL, 0, "second completion");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(0, "fixture.vtwice", "Completes each valid call twice.", FIXTURE_TEXT_SCHEMA,
                   "[{\"lang\":\"en\",\"text\":\"twice\",\"input\":{\"text\":\"twice\"}}]"),
};

FIXTURE_SKILL(0, "test.fixture.vtwice", "Complete twice (validate)", "Calls complete() twice per valid call.", NULL)
