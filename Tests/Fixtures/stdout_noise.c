/* stdout_noise.c — intent `fixture.noise`: a valid skill that writes lines to stdout and stderr from
 * a static constructor (while being scanned or loaded) and from invoke(). stdout carries protocol only:
 * the host must keep this noise out of it. Every write is flushed at once so the noise cannot hide
 * in a stdio buffer. */
#include <stdio.h>

#include "skillhost.h"

__attribute__((constructor)) static void noise_on_load(void)
{
    fputs("stdout noise from the constructor of stdout_noise.so\n", stdout);
    fflush(stdout);
    fputs("stderr noise from the constructor of stdout_noise.so\n", stderr);
    fflush(stderr);
}

static void invoke(const skh_call *call)
{
    fputs("{\"noise\":\"stdout noise from invoke of fixture.noise\"}\n", stdout);
    fflush(stdout);
    fputs("stderr noise from invoke of fixture.noise\n", stderr);
    fflush(stderr);
    static const char result[] = "{\"quiet\":true}";
    call->complete(call, SKH_STATUS_OK, result, sizeof result - 1, NULL);
}

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = "fixture.noise",
        .description = "Prints to stdout and stderr, then returns {\"quiet\":true}.",
        .input_schema = "{\"type\":\"object\"}",
        .confidence = 1.0,
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "test.fixture.stdoutnoise",
    .name = "Stdout noise",
    .version = "1.0.0",
    .category = "testing",
    .vendor = "skillhost tests",
    .description = "Writes to stdout and stderr.",
    .intent_count = 1,
    .intents = intents,
    .invoke = invoke,
};

const skh_skill *skillhost_entry(void);
const skh_skill *skillhost_entry(void) { return &skill; }
