/* secret_nested.c — intent `fixture.secrets`: answers {"ok":true}. Its input schema marks secrets
 * where a flat look at "properties" does not see them: inside `allOf` and `anyOf` branches, as the
 * `additionalProperties` schema of a nested object, and as `items` of an array. The audit log must
 * show every one of them as "[redacted]" (issue 12, item 4). */
#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "kept your secrets");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.secrets",
                   "Takes secrets declared in allOf, anyOf, additionalProperties and items.",
                   "{\"type\":\"object\",\"properties\":{\"user\":{\"type\":\"string\"},"
                   "\"headers\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\",\"writeOnly\":true}},"
                   "\"keys\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"secret\":true}}},"
                   "\"allOf\":[{\"properties\":{\"password\":{\"type\":\"string\",\"secret\":true}}}],"
                   "\"anyOf\":[{\"properties\":{\"token\":{\"type\":\"string\",\"writeOnly\":true}}},{\"required\":[\"user\"]}]}",
                   NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.secrets", "Secrets", "Secrets in nested schemas.", NULL)
