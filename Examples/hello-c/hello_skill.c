/* A complete skill in C, against skillhost.h alone:
 *   cc -std=c99 -shared -fPIC -fvisibility=hidden -I Sources/SkillABI/include \
 *      -o libHelloSkill.so Examples/hello-c/hello_skill.c
 *   skillhost install libHelloSkill.so
 *   skillhost invoke hello.greet --input '{"name":"Ada"}'
 */
#include <stdio.h>
#include <string.h>
#include "skillhost.h"

/* The host validates the input against input_schema first, but a skill checks it too (defence in
 * depth: `skillhost validate` sends wrong input on purpose). A real skill should parse JSON properly;
 * this one finds the value by hand to stay short. */
static void greet(const skh_call *call)
{
    const char *p = strstr(call->input_json, "\"name\"");
    const char *start = p ? strchr(p + 6, '"') : NULL;
    const char *end = start ? strchr(start + 1, '"') : NULL;
    if (!start || !end || end - start - 1 > 100) {
        call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "field \"name\": expected a string of at most 100 bytes");
        return;
    }
    char result[256];
    int n = snprintf(result, sizeof result, "{\"greeting\":\"Hello, %.*s!\"}", (int)(end - start - 1), start + 1);
    call->complete(call, SKH_STATUS_OK, result, (size_t)n, "Greeted.");
}

static const skh_intent intents[] = {{
    .struct_size = sizeof(skh_intent),
    .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
    .name = "hello.greet",
    .description = "Greets someone by name.",
    .input_schema = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\",\"maxLength\":100}},"
                    "\"required\":[\"name\"],\"additionalProperties\":false}",
    .output_schema = "{\"type\":\"object\",\"properties\":{\"greeting\":{\"type\":\"string\"}},\"required\":[\"greeting\"]}",
    .keywords = "{\"en\":[\"hello\",\"greet\"],\"zh\":[\"你好\",\"问候\"]}",
}};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "com.example.hello",
    .name = "Hello",
    .version = "1.0.0",
    .category = "examples",
    .vendor = "Example",
    .description = "The smallest useful C skill.",
    .intent_count = 1,
    .intents = intents,
    .invoke = greet,
};

SKH_EXPORT const skh_skill *skillhost_entry(void) { return &skill; }
