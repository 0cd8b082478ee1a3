/* agent_fixture.h — the shared body of the agent engine's fixture skills (agent_alpha.c, agent_beta.c,
 * agent_alpha_changed.c). Each defines AGENT_* and includes this. The skill:
 *   AGENT_INTENT  input {"day": date (optional)}; sleeps the "sleepMs" of its config section (default
 *                 100 ms; 0 for "instant"), reporting progress 1/2 and 2/2 through the host service,
 *                 then completes with {"skill":AGENT_NAME,"tag":AGENT_TAG,"day":…,"sleptMs":N,
 *                 "request":…,"peer":…} and the message "AGENT_NAME done (AGENT_TAG)". "request" and
 *                 "peer" are what context_get returned for "agent.request" and for
 *                 "agent.result.AGENT_PEER" (the other fixture's result), or null: the agent engine's
 *                 per-step snapshot of the request's context.
 *   keywords AGENT_KEYWORDS, examples AGENT_EXAMPLES: what the engine recognizes it by; AGENT_FEEDS
 *                 (optional): the chain rules it declares (skh_intent.feeds).
 * Thread-safe (no state): the engine may run it next to the other fixtures. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "skillhost.h"

static long config_sleep_ms(const char *context)
{
    const char *p = context ? strstr(context, "\"sleepMs\":") : NULL;
    return p ? strtol(p + 10, NULL, 10) : 100;
}

static void invoke(const skh_call *call)
{
    long ms = config_sleep_ms(call->context_json);
    char day[16] = "";
    const char *d = strstr(call->input_json, "\"day\":\"");
    if (d) { memcpy(day, d + 7, 10); day[10] = 0; }
    call->host->progress(call, 1, 2, "sleeping");
    if (ms > 0) {
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
    }
    call->host->progress(call, 2, 2, "waking up");
    char *request = call->host->context_get(call, "agent.request", NULL);
    char *peer = call->host->context_get(call, "agent.result." AGENT_PEER, NULL);
    size_t cap = 256 + (request ? strlen(request) : 4) + (peer ? strlen(peer) : 4);
    char *out = malloc(cap);
    int n = snprintf(out, cap, "{\"skill\":\"%s\",\"tag\":\"%s\",\"day\":\"%s\",\"sleptMs\":%ld,\"request\":%s,\"peer\":%s}",
                     AGENT_NAME, AGENT_TAG, day, ms, request ? request : "null", peer ? peer : "null");
    call->host->free(request);
    call->host->free(peer);
    call->complete(call, SKH_STATUS_OK, out, (size_t)n, AGENT_NAME " done (" AGENT_TAG ")");
    free(out);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = AGENT_INTENT,
        .description = "Sleeps a configured time, then says so (an agent engine fixture).",
        .input_schema = "{\"type\":\"object\",\"properties\":{\"day\":{\"type\":\"string\",\"format\":\"date\"}},\"additionalProperties\":false}",
        .keywords = AGENT_KEYWORDS,
        .examples = AGENT_EXAMPLES,
#ifdef AGENT_FEEDS
        .feeds = AGENT_FEEDS,
#endif
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = AGENT_ID,
    .name = AGENT_NAME,
    .version = AGENT_VERSION,
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "An agent engine fixture.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
