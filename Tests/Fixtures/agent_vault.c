/* agent_vault.c — intent `fixture.vault.check` (read-only, idempotent), recognized by "vault" / "保险库":
 * input {"token": a string its schema marks "writeOnly": true, matching ^[A-Za-z0-9-]+$ (required),
 * "day": a date (optional, not secret)}. It leaks the token on purpose everywhere a skill can: in a
 * progress report, in its result ({"token":…,"day":…,"valid":true}) and in its message — what an
 * `ask` trace and response must still never show (they hold "[redacted]" instead). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "fixture_skill.h"

static void invoke(const skh_call *call)
{
    const char *token = "", *day = "";
    size_t token_length = 0, day_length = 0;
    fixture_string_member(call->input_json, "token", &token, &token_length);
    fixture_string_member(call->input_json, "day", &day, &day_length);
    char text[256], out[512];
    snprintf(text, sizeof text, "checking %.*s", (int)token_length, token);
    call->host->progress(call, 1, 1, text);
    int n = snprintf(out, sizeof out, "{\"token\":\"%.*s\",\"day\":\"%.*s\",\"valid\":true}",
                     (int)token_length, token, (int)day_length, day);
    snprintf(text, sizeof text, "token %.*s is valid", (int)token_length, token);
    call->complete(call, SKH_STATUS_OK, out, (size_t)n, text);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.vault.check",
        .description = "Checks a token against the vault (an agent engine fixture with a secret input).",
        .input_schema = "{\"type\":\"object\",\"properties\":{"
                        "\"token\":{\"type\":\"string\",\"writeOnly\":true,\"pattern\":\"^[A-Za-z0-9-]+$\"},"
                        "\"day\":{\"type\":\"string\",\"format\":\"date\"}},"
                        "\"required\":[\"token\"],\"additionalProperties\":false}",
        .keywords = "{\"en\":[\"vault\"],\"zh\":[\"保险库\"]}",
        .examples = "[{\"lang\":\"en\",\"text\":\"check the token \\\"abc-123\\\" in the vault\",\"input\":{\"token\":\"abc-123\"}}]",
    },
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.vault", "Vault", "Checks tokens (a secret input).", NULL)
