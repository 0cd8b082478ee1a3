/*
 * skillhost_inline_jobs.h — lets a worker's reader thread run, itself, the task that a reply resumed.
 *
 * When a reply resumes a task that awaits a call (a continuation resumed on the reader thread), the
 * Swift runtime makes the task runnable by enqueueing a job on its global executor, which wakes a
 * pool thread. For a call that was alone on its worker, the host saves that thread wake-up: the
 * reader thread opens its inline slot around the resume, the runtime's global-enqueue hook
 * (`swift_task_enqueueGlobal_hook`, exported by libswift_Concurrency) keeps the first job enqueued from
 * that thread while the slot is open instead of handing it to the pool, and the reader thread runs it
 * (`skh_inline_run`) before it reads again. Every other job goes to the pool as without the hook (or to
 * a hook installed before, which is kept and called).
 *
 * The policy (when a call is alone, when to drain) is Swift's (Sources/SkillHostCore/Support/Async/
 * InlineJobs.swift). Threading: the slot is per thread (thread-local); `skh_inline_install` may be
 * called from any thread, any number of times.
 */
#ifndef SKILLHOST_INLINE_JOBS_H
#define SKILLHOST_INLINE_JOBS_H

/* Installs the hook once per process (later calls do nothing). */
void skh_inline_install(void);

/* Opens this thread's slot: the next job enqueued on the global executor from this thread is kept. */
void skh_inline_open(void);

/* Closes this thread's slot and returns the job it kept (NULL: none). The caller must run it
 * (`skh_inline_run`) or hand it on; a job kept and dropped would leave its task suspended for ever. */
void *skh_inline_close(void);

/* Runs a kept job on this thread as the global executor would (the generic executor, no task executor). */
void skh_inline_run(void *job);

#endif
