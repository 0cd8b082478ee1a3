#include "skillhost_inline_jobs.h"

#include <stddef.h>
#include <stdint.h>

/* The runtime's declarations (swift/include/swift/Runtime/Concurrency.h), with Swift's calling
 * convention. A job is opaque here. swift_job_run takes a SerialExecutorRef by value, which Swift's
 * convention passes as its two words (identity, implementation); the generic executor is both zero. */
#define SKH_SWIFTCC __attribute__((swiftcall))
typedef SKH_SWIFTCC void (*skh_enqueue_original)(void *job);
typedef SKH_SWIFTCC void (*skh_enqueue_hook)(void *job, skh_enqueue_original original);
extern skh_enqueue_hook swift_task_enqueueGlobal_hook;
extern SKH_SWIFTCC void swift_job_run(void *job, void *executor_identity, uintptr_t executor_implementation);

static __thread int slot_open;
static __thread void *slot_job;
/* A hook installed before ours (a test tool, a custom executor): called for every job we do not keep. */
static skh_enqueue_hook previous_hook;

static SKH_SWIFTCC void inline_hook(void *job, skh_enqueue_original original) {
    if (slot_open) {
        slot_open = 0;
        slot_job = job;
        return;
    }
    if (previous_hook) previous_hook(job, original);
    else original(job);
}

void skh_inline_install(void) {
    static int installed;
    if (__atomic_exchange_n(&installed, 1, __ATOMIC_ACQ_REL)) return;
    skh_enqueue_hook before = __atomic_load_n(&swift_task_enqueueGlobal_hook, __ATOMIC_ACQUIRE);
    if (before != inline_hook) previous_hook = before;
    __atomic_store_n(&swift_task_enqueueGlobal_hook, inline_hook, __ATOMIC_RELEASE);
}

void skh_inline_open(void) {
    slot_job = NULL;
    slot_open = 1;
}

void *skh_inline_close(void) {
    void *job = slot_job;
    slot_open = 0;
    slot_job = NULL;
    return job;
}

void skh_inline_run(void *job) {
    swift_job_run(job, NULL, 0);
}
