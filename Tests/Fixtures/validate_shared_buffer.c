/* validate_shared_buffer.c — claims SKH_SKILL_THREAD_SAFE but builds every result in ONE static
 * buffer, piece by piece with short sleeps in between (as slow work would), so concurrent calls
 * overwrite each other: `fixture.vshared`, input {"text": string} (required, checked), answers
 * {"text": …} when called alone and garbage (mixed texts, or not even JSON) under concurrency.
 * validate's concurrency check must fail; every other check passes. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "fixture_skill.h"

static char shared[512];

static void pause_briefly(void)
{
    struct timespec t = {0, 300000}; /* 0.3 ms */
    nanosleep(&t, NULL);
}

static void invoke(const skh_call *call)
{
    const char *text;
    size_t length;
    if (!fixture_text(call, &text, &length)) return;
    strcpy(shared, "{\"text\":\"");
    pause_briefly();
    strncat(shared, text, length);
    pause_briefly();
    strcat(shared, "\"}");
    call->complete(call, SKH_STATUS_OK, shared, strlen(shared), NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.vshared", "Echoes text through a buffer all calls share.",
                   FIXTURE_TEXT_SCHEMA,
                   "[{\"lang\":\"en\",\"text\":\"echo alpha\",\"input\":{\"text\":\"alpha\"}},"
                   "{\"lang\":\"en\",\"text\":\"echo beta\",\"input\":{\"text\":\"beta\"}}]"),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.vshared", "Shared buffer", "Claims to be thread-safe but is not.", NULL)
