/// The files of a new C skill project (`skillhost new NAME --lang c`): one `.c` file against the one
/// header (`skillhost.h`, referenced in the SDK, not copied), a Makefile with the strict flags the
/// header is tested with, and a README. Placeholders: see `ScaffoldNames.fill`.
enum CTemplate {
    static let files: [(path: String, text: String)] = [
        ("{{NAME}}.c", source),
        ("Makefile", makefile),
        ("README.md", readme),
        (".gitignore", "*.so\n*.o\n"),
    ]

    static let makefile = #"""
    # {{TITLE}} — a skillhost skill in C.
    #   make            builds lib{{NAME}}.so from {{NAME}}.c and skillhost.h (the whole ABI, nothing to link)
    #   make check      runs skillhost's conformance validator on it
    #   make install    validates it and moves it into the skill folder atomically
    # The header: from an installed skillhost (pkg-config), else the SDK this project was made from;
    # `make SKILLHOST_CFLAGS=-I/path/to/include` chooses.
    SKILLHOST_CFLAGS ?= $(shell pkg-config --cflags skillhost 2>/dev/null || echo -I{{SDK}}/Sources/SkillABI/include)
    SKILLHOST ?= skillhost
    CC ?= cc
    CFLAGS ?= -O2 -g
    CFLAGS += -std=c99 -Wall -Wextra -Werror -pedantic -fPIC -fvisibility=hidden
    LIB := lib{{NAME}}.so

    all: $(LIB)

    $(LIB): {{NAME}}.c
    	$(CC) $(CFLAGS) $(SKILLHOST_CFLAGS) -shared -o $@ {{NAME}}.c

    check: $(LIB)
    	$(SKILLHOST) validate ./$(LIB)

    install: $(LIB)
    	$(SKILLHOST) install ./$(LIB)

    clean:
    	rm -f $(LIB)

    .PHONY: all check install clean

    """#

    static let source = ##"""
    /* {{NAME}}.c — {{TITLE}}, a skillhost skill in C: intent {{NS}}.greet greets a person by name.
     * A starting point: replace the intent with what your skill does. skillhost.h documents every
     * field (ownership, lifetime, threading); only C types and UTF-8 JSON text cross the boundary. */
    #include <stdint.h>
    #include <stdio.h>
    #include <string.h>

    #include "skillhost.h"

    /* Appends the UTF-8 encoding of code point `cp` to out[*n], if it fits. */
    static int put_utf8(char *out, size_t cap, size_t *n, uint32_t cp)
    {
        unsigned char b[4];
        size_t k;
        if (cp < 0x80) { b[0] = (unsigned char)cp; k = 1; }
        else if (cp < 0x800) { b[0] = (unsigned char)(0xC0 | (cp >> 6)); b[1] = (unsigned char)(0x80 | (cp & 0x3F)); k = 2; }
        else if (cp < 0x10000) { b[0] = (unsigned char)(0xE0 | (cp >> 12)); b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
                                 b[2] = (unsigned char)(0x80 | (cp & 0x3F)); k = 3; }
        else { b[0] = (unsigned char)(0xF0 | (cp >> 18)); b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
               b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)); b[3] = (unsigned char)(0x80 | (cp & 0x3F)); k = 4; }
        if (*n + k >= cap) return 0;
        memcpy(out + *n, b, k);
        *n += k;
        return 1;
    }

    static int hex4(const char *p, uint32_t *v)
    {
        int i;
        *v = 0;
        for (i = 0; i < 4; i++) {
            char c = p[i];
            *v <<= 4;
            if (c >= '0' && c <= '9') *v |= (uint32_t)(c - '0');
            else if (c >= 'a' && c <= 'f') *v |= (uint32_t)(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') *v |= (uint32_t)(c - 'A' + 10);
            else return 0;
        }
        return 1;
    }

    /* Walks the members of the top-level JSON object: each call finds the next member name (raw,
     * escapes undecoded) at nesting depth 1, sets `name`/`len`, leaves the cursor on the member's value
     * and returns 1; returns 0 at the end. */
    typedef struct { const char *p; int depth; } json_cursor;

    static int json_next_member(json_cursor *c, const char **name, size_t *len)
    {
        const char *p = c->p;
        while (*p) {
            if (*p == '{' || *p == '[') { c->depth++; p++; continue; }
            if (*p == '}' || *p == ']') { c->depth--; p++; continue; }
            if (*p != '"') { p++; continue; }
            const char *s = ++p;
            while (*p && *p != '"') p += (*p == '\\' && p[1]) ? 2 : 1;
            if (!*p) break;
            size_t n = (size_t)(p - s);
            p++;
            while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
            if (c->depth != 1 || *p != ':') continue;  /* a string value, or a name deeper down */
            p++;
            while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
            c->p = p;
            *name = s;
            *len = n;
            return 1;
        }
        c->p = p;
        return 0;
    }

    /* Reads the string member `key` of the top-level JSON object `json` into `out` as UTF-8 (escapes
     * decoded). Returns 1 when found, 0 when absent, -1 when it is not a string or does not fit.
     * Enough for flat inputs; use a JSON library (cJSON, yyjson, …) for anything bigger. */
    static int json_string_member(const char *json, const char *key, char *out, size_t cap)
    {
        json_cursor c = { json, 0 };
        const char *name;
        size_t len;
        while (json_next_member(&c, &name, &len)) {
            if (len != strlen(key) || strncmp(name, key, len) != 0) continue;
            const char *p = c.p;
            if (*p != '"') return -1;
            p++;
            size_t n = 0;
            while (*p && *p != '"') {
                if (*p != '\\') {
                    if (n + 1 >= cap) return -1;
                    out[n++] = *p++;
                    continue;
                }
                char e = p[1];
                uint32_t cp = 0, lo = 0;
                p += 2;
                switch (e) {
                case 'n': cp = '\n'; break;
                case 't': cp = '\t'; break;
                case 'r': cp = '\r'; break;
                case 'b': cp = '\b'; break;
                case 'f': cp = '\f'; break;
                case 'u':
                    if (!hex4(p, &cp)) return -1;
                    p += 4;
                    if (cp >= 0xD800 && cp < 0xDC00 && p[0] == '\\' && p[1] == 'u' && hex4(p + 2, &lo) && lo >= 0xDC00 && lo < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        p += 6;
                    }
                    break;
                default: cp = (unsigned char)e; break; /* \" \\ \/ */
                }
                if (!put_utf8(out, cap, &n, cp)) return -1;
            }
            out[n] = '\0';
            return 1;
        }
        return 0;
    }

    /* Copies into `out` the first member name of the top-level JSON object `json` that is not in
     * `allowed` (a NULL-terminated list). Returns 1 when there is one, 0 when every member is allowed. */
    static int json_unknown_member(const char *json, const char *const *allowed, char *out, size_t cap)
    {
        json_cursor c = { json, 0 };
        const char *name;
        size_t len;
        while (json_next_member(&c, &name, &len)) {
            int known = 0;
            for (const char *const *a = allowed; *a; a++)
                if (strlen(*a) == len && strncmp(name, *a, len) == 0) known = 1;
            if (!known) {
                size_t n = len < cap - 1 ? len : cap - 1;
                memcpy(out, name, n);
                out[n] = '\0';
                return 1;
            }
        }
        return 0;
    }

    /* Writes `in` as the inside of a JSON string (quotes, backslashes and control characters escaped). */
    static void json_escape(const char *in, char *out, size_t cap)
    {
        size_t n = 0;
        for (; *in && n + 7 < cap; in++) {
            unsigned char c = (unsigned char)*in;
            if (c == '"' || c == '\\') { out[n++] = '\\'; out[n++] = (char)c; }
            else if (c < 0x20) n += (size_t)snprintf(out + n, cap - n, "\\u%04x", c);
            else out[n++] = (char)c;
        }
        out[n] = '\0';
    }

    /* Code points in a UTF-8 string (what JSON Schema's maxLength counts). */
    static size_t utf8_length(const char *s)
    {
        size_t n = 0;
        for (; *s; s++)
            if (((unsigned char)*s & 0xC0) != 0x80) n++;
        return n;
    }

    /* [any-thread]: no state, so the skill sets SKH_SKILL_THREAD_SAFE below. Completes every call
     * exactly once, before returning (the work is quick). */
    static void invoke(const skh_call *call)
    {
        char name[1024], language[32] = "", greeting[1100], escaped[6600], result[6700];
        if (strcmp(call->intent, "{{NS}}.greet") != 0) {
            call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "unknown intent");
            return;
        }
        /* The host checks the schema first; the skill checks it too (`skillhost validate` sends input
         * that breaks it): answer SKH_STATUS_INVALID_INPUT naming the field, never crash or guess.
         * The schema says "additionalProperties": false, so a member it does not name is refused. */
        static const char *const fields[] = {"name", "language", NULL};
        char unknown[64], message[160];
        if (json_unknown_member(call->input_json, fields, unknown, sizeof unknown)) {
            snprintf(message, sizeof message, "unknown field \"%s\": expected only \"name\" and \"language\"", unknown);
            call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, message);
            return;
        }
        if (json_string_member(call->input_json, "name", name, sizeof name) != 1 || name[0] == '\0' || utf8_length(name) > 200) {
            call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "field \"name\": expected a non-empty string of at most 200 characters");
            return;
        }
        /* "language" from the input, else the caller's locale from the call's context. */
        switch (json_string_member(call->input_json, "language", language, sizeof language)) {
        case 1:
            if (strcmp(language, "en") != 0 && strcmp(language, "zh") != 0) {
                call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "field \"language\": expected \"en\" or \"zh\"");
                return;
            }
            break;
        case 0:
            json_string_member(call->context_json, "locale", language, sizeof language);
            break;
        default:
            call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "field \"language\": expected \"en\" or \"zh\"");
            return;
        }
        if (strncmp(language, "zh", 2) == 0)
            snprintf(greeting, sizeof greeting, "你好，%s！", name);
        else
            snprintf(greeting, sizeof greeting, "Hello, %s!", name);
        json_escape(greeting, escaped, sizeof escaped);
        int n = snprintf(result, sizeof result, "{\"greeting\":\"%s\"}", escaped);
        call->complete(call, SKH_STATUS_OK, result, (size_t)n, greeting);
    }

    static const skh_intent intents[] = {
        {
            .struct_size = sizeof(skh_intent),
            .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
            .name = "{{NS}}.greet",
            .description = "Greet a person by name, in English or Chinese.",
            .input_schema = "{\"type\":\"object\",\"properties\":{"
                            "\"name\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":200,\"description\":\"Who to greet.\"},"
                            "\"language\":{\"type\":\"string\",\"enum\":[\"en\",\"zh\"],\"description\":\"Language of the greeting; default: the caller's locale.\"}},"
                            "\"required\":[\"name\"],\"additionalProperties\":false}",
            .output_schema = "{\"type\":\"object\",\"properties\":{\"greeting\":{\"type\":\"string\"}},\"required\":[\"greeting\"]}",
            .keywords = "{\"en\":[\"greet\",\"say hello\"],\"zh\":[\"问候\",\"打招呼\"]}",
            .examples = "[{\"lang\":\"en\",\"text\":\"greet Ada\",\"input\":{\"name\":\"Ada\"}},"
                        "{\"lang\":\"zh\",\"text\":\"跟小明打个招呼\",\"input\":{\"name\":\"小明\",\"language\":\"zh\"}}]",
            .version = 1,
            /* ABI 1.3: intents this one's result can feed in `skillhost ask`, e.g.
             * "[{\"intent\":\"calendar.events.list\",\"fields\":{\"from\":{\"path\":\"items[*].start\",\"pick\":\"earliestDay\"}}}]";
             * NULL = none. See skh_intent.feeds in skillhost.h. */
            .feeds = NULL,
        },
    };

    static const skh_skill skill = {
        .abi_major = SKH_ABI_VERSION_MAJOR,
        .abi_minor = SKH_ABI_VERSION_MINOR,
        .struct_size = sizeof(skh_skill),
        .flags = SKH_SKILL_THREAD_SAFE,
        .id = "{{ID}}",
        .name = "{{TITLE}}",
        .version = "0.1.0",
        .category = "utilities",
        .vendor = "{{VENDOR}}",
        .description = "Greets people by name, in English or Chinese.",
        .toolchain = NULL, /* C: never refused for a Swift toolchain mismatch */
        .intent_count = sizeof intents / sizeof intents[0],
        .intents = intents,
        .invoke = invoke,
        .abi_minor_required = 0, /* uses nothing newer than ABI 1.0 */
        /* ABI 1.2: what it needs beyond computing (network, files, environment, programs), shown at
         * install and granted by the owner; NULL = nothing. See skh_permissions in skillhost.h. */
        .permissions = NULL,
    };

    SKH_EXPORT const skh_skill *skillhost_entry(void) { return &skill; }

    """##

    static let readme = #"""
    # {{TITLE}}

    A skill for skillhost, in C: `{{ID}}`, intent `{{NS}}.greet`. The only dependency is the header
    `skillhost.h` (the Makefile asks `pkg-config --cflags skillhost` of an installed skillhost, else uses
    the SDK it was made from; `make SKILLHOST_CFLAGS=-IDIR` points elsewhere). It compiles as C99 with
    `-Wall -Wextra -Werror -pedantic`.

    ## Build, check, install

        make                                    # → lib{{NAME}}.so
        make check                              # skillhost validate: manifest, examples, wrong input, concurrency, memory
        make install                            # skillhost install: validates, then moves it into the skill folder atomically
        skillhost invoke {{NS}}.greet --input '{"name":"Ada"}' --json

    ## Make it yours

    - `{{NAME}}.c`: `skill` holds the identity (raise `version` with every release: when two files hold
      the same id, the newest version wins); `intents` the intents with their JSON Schemas (the host
      validates input and output against them), flags, keywords and examples.
    - `invoke` must call `call->complete` exactly once, from any thread, and should answer wrong input
      with `SKH_STATUS_INVALID_INPUT` and a message naming the field.
    - A breaking change to an intent ships as a second entry with the same name and `.version = 2`;
      `call->intent` is then `"{{NS}}.greet@2"` for it.
    - Services added after ABI 1.0 (e.g. `time_left_ms`) exist only on newer hosts: check
      `SKH_HOST_HAS(call->host, time_left_ms)` before calling one.

    """#
}
