/* alloc_forever.c — intent `fixture.alloc`: allocates 1 MiB blocks and writes every byte of each, never
 * freeing, without checking malloc's result: under an address-space limit (workers.memoryLimitMB)
 * malloc returns NULL and the memset through it dies with SIGSEGV. The host must answer "crashed",
 * naming the memory limit. Safety cap: after 4 GiB it stops and fails ("no memory limit is in
 * force") rather than eat the machine. `fixture.alloc.ok` answers {"ok":true}. */
#include <stdlib.h>
#include <string.h>

#include "fixture_skill.h"

#define BLOCK (1024L * 1024L)
#define SAFETY_CAP (4096L * BLOCK)

static void invoke(const skh_call *call)
{
    long total = 0;
    if (strcmp(call->intent, "fixture.alloc.ok") == 0) {
        call->complete(call, SKH_STATUS_OK, "{\"ok\":true}", 11, "fine");
        return;
    }
    while (total < SAFETY_CAP) {
        char *p = malloc(BLOCK);
        memset(p, 0x5a, BLOCK); /* p == NULL once the limit is reached: SIGSEGV here */
        total += BLOCK;
    }
    call->complete(call, SKH_STATUS_FAILED, NULL, 0, "allocated 4 GiB without dying: no memory limit is in force");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.alloc",
                   "Allocates and touches 1 MiB blocks until it dies.",
                   "{\"type\":\"object\"}", NULL),
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.alloc.ok",
                   "Answers {\"ok\":true} at once: shows the skill works again after a fault.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.alloc", "Allocates and touches 1 MiB blocks until it dies.",
              "Allocates and touches 1 MiB blocks until it dies.", NULL)
