/* validate_bad_input.c — two intents that trust the host's schema check too much. Both take
 * {"text": string} (required) and echo their input for it, as their examples show; for input without
 * a string "text" (which only `skillhost validate` sends, bypassing the host's check):
 *   fixture.vcrash  takes the length of the NULL it got from looking the field up: SIGSEGV;
 *   fixture.vhang   returns without ever completing the call.
 * validate must fail wrong-input (a crash, a missed deadline) and exactly-once (vhang never completed). */
#include "fixture_skill.h"

static const char *volatile missing = NULL;

static void invoke(const skh_call *call)
{
    const char *text;
    size_t length;
    if (!fixture_string_member(call->input_json, "text", &text, &length)) {
        if (strcmp(call->intent, "fixture.vcrash") != 0) return; /* fixture.vhang: and never complete */
        text = missing;
        length = strlen(text); /* SIGSEGV */
    }
    call->complete(call, SKH_STATUS_OK, call->input_json, call->input_len, length ? "echoed" : "echoed nothing");
}

#define EXAMPLE "[{\"lang\":\"en\",\"text\":\"echo hi\",\"input\":{\"text\":\"hi\"}}]"

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.vcrash", "Echoes text; crashes on input without it.",
                   FIXTURE_TEXT_SCHEMA, EXAMPLE),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.vhang", "Echoes text; never completes for input without it.",
                   FIXTURE_TEXT_SCHEMA, EXAMPLE),
};

FIXTURE_SKILL(0, "test.fixture.vbadinput", "Bad input handling", "Crashes or hangs on input that breaks its schema.", NULL)
