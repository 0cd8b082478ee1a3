/* constructor_marker.c — the "evil" file of the symlink-race tests: its ELF constructor (which runs
 * inside dlopen, before the host can look at anything) appends a line to the file MARKER_PATH, a
 * string the test compiles in with -DMARKER_PATH='"/some/file"', writes "constructor_marker:
 * constructor ran" to stderr and aborts — so that it is seen even where a sandbox forbids the write
 * (the scan process and the worker then report a crash quoting that line). Built without MARKER_PATH
 * (by this folder's Makefile) the constructor does nothing, and intent `fixture.marker` answers
 * {"marker":true}. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_skill.h"

#ifndef MARKER_PATH
#define MARKER_PATH ""
#endif

__attribute__((constructor)) static void leave_marker(void)
{
    static const char line[] = "constructor ran\n";
    static const char said[] = "constructor_marker: constructor ran\n";
    if (MARKER_PATH[0] == '\0') return;
    int fd = open(MARKER_PATH, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, line, sizeof line - 1);
        (void)ignored;
        close(fd);
    }
    ssize_t ignored = write(2, said, sizeof said - 1);
    (void)ignored;
    abort();
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{\"marker\":true}", 15, "the marker skill ran");
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.marker",
                   "Answers {\"marker\":true}; its constructor writes MARKER_PATH when compiled with one.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.marker", "Constructor marker",
              "Writes a marker file from its ELF constructor (symlink race tests).", NULL)
