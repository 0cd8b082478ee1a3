/* scan_reads_sibling.c — a static constructor that, while the host's scan process loads this file,
 * finds the folder it was loaded from (readlink of the /proc/self/fd/N name dlopen was given, read
 * back with dladdr) and tries to read "secret.txt" in that folder. The scan process may read the skill
 * files it was handed and nothing else there: if the read works, the constructor aborts, so the scan
 * refuses the file as crashed and the test sees it; if it is refused, the skill registers normally. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixture_skill.h"

__attribute__((constructor)) static void read_sibling(void)
{
    Dl_info info;
    if (dladdr((void *)read_sibling, &info) == 0 || info.dli_fname == NULL) return;
    char real[4096];
    ssize_t n = readlink(info.dli_fname, real, sizeof real - 64);
    if (n <= 0) return;
    real[n] = 0;
    char *slash = strrchr(real, '/');
    if (slash == NULL) return;
    strcpy(slash + 1, "secret.txt");
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        static const char msg[] = "scan_reads_sibling: read secret.txt beside the skill during the scan\n";
        (void)!write(2, msg, sizeof msg - 1);
        abort();
    }
}

static void invoke(const skh_call *call)
{
    call->complete(call, SKH_STATUS_OK, "{}", 2, NULL);
}

static const skh_intent intents[] = {
    FIXTURE_INTENT(SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT, "fixture.scan_reads_sibling", "Returns {}.",
                   "{\"type\":\"object\"}", NULL),
};

FIXTURE_SKILL(SKH_SKILL_THREAD_SAFE, "test.fixture.scanreadssibling", "Scan reads sibling",
              "Tries to read a file beside it while it is scanned.", NULL)
