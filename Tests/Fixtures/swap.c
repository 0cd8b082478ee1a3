/* swap.c — the skill test.fixture.swap at version SWAP_VERSION.0.0: swap.so is version 1, and the
 * Makefile builds swap_v2.so from this file with -DSWAP_VERSION=2, for replacing a skill's file while
 * the host runs.
 *   fixture.swap   input {"ms": integer}: sleeps ms milliseconds inside invoke(), then completes OK
 *                  with {"version": SWAP_VERSION}. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skillhost.h"

#ifndef SWAP_VERSION
#define SWAP_VERSION 1
#endif
#define TEXT(x) #x
#define STR(x) TEXT(x)

static void invoke(const skh_call *call)
{
    const char *p = call->input_json ? strstr(call->input_json, "\"ms\":") : NULL;
    long ms = p ? strtol(p + 5, NULL, 10) : 0;
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    static const char result[] = "{\"version\":" STR(SWAP_VERSION) "}";
    if (ms > 0 && ms < 60000) nanosleep(&ts, NULL);
    call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, "version " STR(SWAP_VERSION));
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.swap",
        .description = "Sleeps ms milliseconds, then answers with the skill's major version.",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0}}}",
        .output_schema = "{\"type\":\"object\",\"properties\":{\"version\":{\"type\":\"integer\"}},\"required\":[\"version\"]}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.swap",
    .name = "Swap",
    .version = STR(SWAP_VERSION) ".0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "One skill at two versions, for replacing its file while the host runs.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
