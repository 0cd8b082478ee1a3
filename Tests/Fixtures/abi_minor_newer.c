/* abi_minor_newer.c — a skill built against a FUTURE minor, 1.7, that does not need anything newer
 * than 1.1 (abi_minor_required = 1, for time_left_ms). A 1.7 header would have grown the structs at
 * the end; this file models that by embedding the current structs first and appending the "1.7"
 * fields after them, with struct_size covering everything. The host must:
 *   - read only the fields it knows (stepping through the intents by their larger struct_size),
 *   - serve it at ABI 1.1 and say so,
 *   - hand it a host table without the 1.7 service `frobnicate`, which the skill notices.
 *   fixture.newer.hello (registered as @2)  → {"abiBuilt":"1.7","hostMinor":N,"missing":["frobnicate"],
 *                                             "timeLeftKnown":true|false,"intent":"…"}
 *   fixture.newer.other                     → the same; proves the second intent is found at the right stride. */
#include <stdio.h>

#include "skillhost.h"

/* What the 1.7 structs would look like: today's fields, then the new ones. */
typedef struct {
    skh_intent base;
    const char *future_hint; /* a 1.7 field this host does not know */
    uint64_t future_flags;
} skh_intent_1_7;

typedef struct {
    skh_skill base;
    const char *future_field; /* a 1.7 field this host does not know */
} skh_skill_1_7;

typedef struct {
    skh_host base;
    void (*frobnicate)(const skh_call *call); /* a 1.7 host service */
} skh_host_1_7;

static void invoke(const skh_call *call)
{
    const skh_host *host = call->host;
    int has_frobnicate = host->struct_size >= sizeof(skh_host_1_7);
    int has_time_left = SKH_HOST_HAS(host, time_left_ms);
    long long left = has_time_left ? (long long)host->time_left_ms(call) : -2;
    char out[320];
    int n = snprintf(out, sizeof out,
                     "{\"abiBuilt\":\"1.7\",\"hostMinor\":%u,\"missing\":[%s],\"timeLeftKnown\":%s,\"timeLeftPositive\":%s,\"intent\":\"%s\"}",
                     (unsigned)host->abi_minor, has_frobnicate ? "" : "\"frobnicate\"", has_time_left ? "true" : "false",
                     left > 0 ? "true" : "false", call->intent);
    call->complete(call, SKH_STATUS_OK, out, (size_t)n, NULL);
}

static const skh_intent_1_7 intents[] = {
    {
        .base = {
            .struct_size = sizeof(skh_intent_1_7),
            .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
            .name = "fixture.newer.hello",
            .description = "Says which host it runs in (version 2 of this intent).",
            .input_schema = "{\"type\":\"object\",\"additionalProperties\":false}",
            .confidence = 1.0,
            .version = 2,
        },
        .future_hint = "ignored by older hosts",
        .future_flags = 0xffffffffffffffffull,
    },
    {
        .base = {
            .struct_size = sizeof(skh_intent_1_7),
            .flags = SKH_INTENT_READ_ONLY,
            .name = "fixture.newer.other",
            .description = "The second intent, found only when the host steps by the skill's struct_size.",
            .input_schema = "{\"type\":\"object\"}",
            .confidence = 1.0,
        },
        .future_hint = "ignored by older hosts",
    },
};

static const skh_skill_1_7 skill = {
    .base = {
        .abi_major = SKH_ABI_VERSION_MAJOR,
        .abi_minor = 7,
        .struct_size = sizeof(skh_skill_1_7),
        .flags = SKH_SKILL_THREAD_SAFE,
        .id = "test.fixture.newer",
        .name = "ABI 1.7 skill",
        .version = "1.0.0",
        .category = "testing",
        .vendor = "skillhost tests",
        .description = "Built against a future minor; needs only 1.1.",
        .intent_count = 2,
        .intents = &intents[0].base,
        .invoke = invoke,
        .abi_minor_required = 1,
    },
    .future_field = "ignored by older hosts",
};

const skh_skill *skillhost_entry(void) { return &skill.base; }
