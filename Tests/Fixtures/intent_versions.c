/* intent_versions.c — one skill serving two versions of one intent, the way a breaking change ships:
 *   fixture.greet    (version 1) input {"name": string}, required name      → {"greeting":"hello NAME","v":1}
 *   fixture.greet@2  (version 2) input {"first","last"}, both required      → {"greeting":"hello FIRST LAST","v":2}
 * The skill tells them apart by skh_call.intent ("fixture.greet" / "fixture.greet@2").
 * A bare "fixture.greet" must reach version 2; "fixture.greet@1" version 1. */
#include <stdio.h>
#include <string.h>

#include "skillhost.h"

/* Finds "key":"value" in a flat JSON object (the host validated the input; good enough for a fixture). */
static int field(const char *json, const char *key, char *out, size_t cap)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *p = strstr(json, pattern);
    if (!p) return 0;
    p += strlen(pattern);
    size_t n = 0;
    while (p[n] && p[n] != '"' && n + 1 < cap) { out[n] = p[n]; n++; }
    out[n] = 0;
    return 1;
}

static void invoke(const skh_call *call)
{
    char a[64] = "", b[64] = "", out[256];
    int n;
    if (strcmp(call->intent, "fixture.greet@2") == 0) {
        if (!field(call->input_json, "first", a, sizeof a) || !field(call->input_json, "last", b, sizeof b)) {
            call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "fixture.greet@2 needs \"first\" and \"last\"");
            return;
        }
        n = snprintf(out, sizeof out, "{\"greeting\":\"hello %s %s\",\"v\":2}", a, b);
    } else if (strcmp(call->intent, "fixture.greet") == 0) {
        if (!field(call->input_json, "name", a, sizeof a)) {
            call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "fixture.greet needs \"name\"");
            return;
        }
        n = snprintf(out, sizeof out, "{\"greeting\":\"hello %s\",\"v\":1}", a);
    } else {
        call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "unknown intent");
        return;
    }
    call->complete(call, SKH_STATUS_OK, out, (size_t)n, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.greet",
        .description = "Greets a person by name (version 1: one \"name\" field).",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"],\"additionalProperties\":false}",
        .examples = "[{\"lang\":\"en\",\"text\":\"greet Ada\",\"input\":{\"name\":\"Ada\"}}]",
        .version = 1,
    },
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.greet",
        .description = "Greets a person by name (version 2: \"first\" and \"last\", a breaking change).",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"first\":{\"type\":\"string\"},\"last\":{\"type\":\"string\"}},\"required\":[\"first\",\"last\"],\"additionalProperties\":false}",
        .examples = "[{\"lang\":\"en\",\"text\":\"greet Ada Lovelace\",\"input\":{\"first\":\"Ada\",\"last\":\"Lovelace\"}}]",
        .version = 2,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.greet",
    .name = "Greeter with two intent versions",
    .version = "2.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Serves fixture.greet in versions 1 and 2.",
    .intent_count = 2,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void) { return &skill; }
