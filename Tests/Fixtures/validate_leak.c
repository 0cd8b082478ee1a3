/* validate_leak.c — intent `fixture.vleak`, input {"text": string} (required, checked): answers
 * {"text": …} in a 4 KiB buffer it mallocs (and fills) for every call and never frees — the classic
 * leak of a result buffer kept after complete() returned. validate's memory check must fail (about
 * 1.6 MiB over its 400 measured calls); every other check passes. */
#include <stdio.h>
#include <stdlib.h>

#include "fixture_skill.h"

enum { RESULT_BYTES = 4096 };

static void invoke(const skh_call *call)
{
    const char *text;
    size_t length;
    if (!fixture_text(call, &text, &length)) return;
    char *result = malloc(RESULT_BYTES);
    if (!result) {
        call->complete(call, SKH_STATUS_FAILED, NULL, 0, "out of memory");
        return;
    }
    memset(result, ' ', RESULT_BYTES); /* JSON may end in spaces: the whole buffer is the result */
    int n = snprintf(result, RESULT_BYTES, "{\"text\":\"%.*s\"}", (int)length, text);
    result[n] = ' ';
    call->complete(call, SKH_STATUS_OK, result, RESULT_BYTES, "echoed (and leaked 4 KiB)");
    /* missing: free(result); */
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.vleak", "Echoes text and leaks its result buffer.",
                   FIXTURE_TEXT_SCHEMA, "[{\"lang\":\"en\",\"text\":\"echo leak\",\"input\":{\"text\":\"leak\"}}]"),
};

FIXTURE_SKILL(0, "test.fixture.vleak", "Leak", "Never frees its result buffers.", NULL)
