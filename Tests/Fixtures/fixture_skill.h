/* fixture_skill.h — shared by the fixtures that check their own input (as every skill should: the
 * host validates input first, but `skillhost validate` sends wrong input straight to the skill), and
 * the skh_intent / skh_skill boilerplate of the one-file fixtures (validate_*.c and the fault
 * fixtures). Not a JSON parser: enough for a fixture. */
#ifndef FIXTURE_SKILL_H
#define FIXTURE_SKILL_H

#include <stddef.h>
#include <string.h>

#include "skillhost.h"

/* Returns 1 and sets *value / *length (not NUL-terminated) if `json`, a flat JSON object without
 * escapes, has the member "key": "…" (a string), else 0. */
static inline int fixture_string_member(const char *json, const char *key, const char **value, size_t *length)
{
    size_t key_length = strlen(key);
    for (const char *p = strchr(json, '"'); p; p = strchr(p + 1, '"')) {
        if (strncmp(p + 1, key, key_length) != 0 || p[1 + key_length] != '"') continue;
        const char *q = p + 2 + key_length;
        while (*q == ' ') q++;
        if (*q++ != ':') return 0;
        while (*q == ' ') q++;
        if (*q != '"') return 0;
        const char *end = strchr(q + 1, '"');
        if (!end) return 0;
        *value = q + 1;
        *length = (size_t)(end - q - 1);
        return 1;
    }
    return 0;
}

/* The input schema of FIXTURE_TEXT: {"text": a string of at most 64 characters}, required. */
#define FIXTURE_TEXT_SCHEMA \
    "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"maxLength\":64}},\"required\":[\"text\"]}"

/* Reads "text" of FIXTURE_TEXT_SCHEMA into *text / *length; if it is missing, not a string or too
 * long, completes the call with SKH_STATUS_INVALID_INPUT, naming the field, and returns 0. */
static inline int fixture_text(const skh_call *call, const char **text, size_t *length)
{
    if (fixture_string_member(call->input_json, "text", text, length) && *length <= 64) return 1;
    call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "field \"text\": expected a string of at most 64 bytes");
    return 0;
}

/* One skh_intent (confidence, keywords, surfaces and priority left at their defaults). */
#define FIXTURE_INTENT(intent_flags, intent_name, intent_description, intent_schema, intent_examples)   \
    {                                                                                                    \
        .struct_size = sizeof(skh_intent),                                                               \
        .flags = (intent_flags),                                                                         \
        .name = intent_name,                                                                             \
        .description = intent_description,                                                               \
        .input_schema = intent_schema,                                                                   \
        .examples = intent_examples,                                                                     \
    }

/* Defines the static skh_skill of a one-file fixture from its `intents` array and `invoke` function
 * (and `init_function`, NULL for none), and exports skillhost_entry. */
/* The skill `skill` (after `intents` and `invoke`), for a fixture that writes its own skillhost_entry
 * (one that crashes, hangs or misbehaves there). */
#define FIXTURE_SKILL_ONLY(skill_flags, skill_id, skill_name, skill_description, init_function)         \
    static const skh_skill skill = {                                                                     \
        .abi_major = SKH_ABI_VERSION_MAJOR,                                                              \
        .abi_minor = SKH_ABI_VERSION_MINOR,                                                              \
        .struct_size = sizeof(skh_skill),                                                                \
        .flags = (skill_flags),                                                                          \
        .id = skill_id,                                                                                  \
        .name = skill_name,                                                                              \
        .version = "1.0.0",                                                                              \
        .category = "testing",                                                                           \
        .vendor = "skillhost tests",                                                                     \
        .description = skill_description,                                                                \
        .intent_count = sizeof intents / sizeof intents[0],                                              \
        .intents = intents,                                                                              \
        .init = init_function,                                                                           \
        .invoke = invoke,                                                                                \
    };                                                                                                   \
    const skh_skill *skillhost_entry(void);

/* The skill and a skillhost_entry that returns it. */
#define FIXTURE_SKILL(skill_flags, skill_id, skill_name, skill_description, init_function)              \
    FIXTURE_SKILL_ONLY(skill_flags, skill_id, skill_name, skill_description, init_function)             \
    const skh_skill *skillhost_entry(void) { return &skill; }

#endif
