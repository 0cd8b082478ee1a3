/* echo_c.c — a WELL-BEHAVED C skill, the baseline the other fixtures misbehave against.
 *   fixture.echo         input {"text": string} (required); completes OK, synchronously inside
 *                        invoke(), with the input object's bytes unchanged. Input without a string
 *                        "text" (which only `skillhost validate` sends) completes INVALID_INPUT.
 *   fixture.echo.strict  declares output_schema {"n": integer, required} but returns
 *                        {"n":"not a number"}: the host must reject the result (output schema violation).
 * Thread-safe: no state at all. */
#include <string.h>

#include "skillhost.h"
#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    const char *text;
    size_t length;
    if (strcmp(call->intent, "fixture.echo.strict") == 0) {
        static const char bad[] = "{\"n\":\"not a number\"}";
        call->complete(call, SKH_STATUS_OK, bad, sizeof bad - 1, "returns a string where the schema wants an integer");
        return;
    }
    if (!fixture_string_member(call->input_json, "text", &text, &length)) {
        call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "field \"text\": expected a string");
        return;
    }
    call->complete(call, SKH_STATUS_OK, call->input_json, call->input_len, "echoed");
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.echo",
        .description = "Returns its input object unchanged.",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}",
        .confidence = 1.0,
        .keywords = "{\"en\":[\"echo\"]}",
        .examples = "[{\"lang\":\"en\",\"text\":\"echo hi\",\"input\":{\"text\":\"hi\"}}]",
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.echo.strict",
        .description = "Returns a result that violates its own output schema.",
        .input_schema = "{\"type\":\"object\"}",
        .output_schema = "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"required\":[\"n\"]}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.echo",
    .name = "Echo (C fixture)",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "A well-behaved C echo skill.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
