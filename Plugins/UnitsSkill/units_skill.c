/*
 * units_skill.c — "Units" (dev.skillhost.units): a bundled skill in plain C99, written against
 * Sources/SkillABI/include/skillhost.h alone (no SkillKit, no other library).
 *
 * Intent `units.convert`: {"value": number, "from": unit, "to": unit} → {"value", "from", "to", "text"}
 * for length (m km cm mm mi ft in yd), mass (kg g lb oz), temperature (C F K) and volume (l ml gal cup).
 *
 * Threading: after init() the skill has no mutable state; invoke() completes before it returns and
 * keeps everything on its own stack, so it is declared SKH_SKILL_THREAD_SAFE.
 *
 * Input: the host has validated the input against the schema, but this file trusts nothing. It reads
 * exactly `input_len` bytes (or up to an earlier NUL) with a small JSON reader that validates the
 * whole object (strings with every escape incl. surrogate pairs, UTF-8, numbers, nested values to a
 * bounded depth). Anything malformed completes with SKH_STATUS_INVALID_INPUT; nothing is read outside
 * the input and nothing is written outside fixed-size buffers.
 *
 * Locale: strtod and printf honour LC_NUMERIC, which another part of the process may have changed
 * (a decimal comma would break both the input and the JSON we produce). invoke() switches its own
 * thread to the "C" locale with uselocale() while it parses and formats, and back before complete().
 */
#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale, strnlen */

#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skillhost.h"

#define UNITS_EXPORT __attribute__((visibility("default")))

/* ---------------------------------------------------------------------------------------------- */
/* Units                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

enum unit_kind { KIND_LENGTH, KIND_MASS, KIND_TEMPERATURE, KIND_VOLUME };

static const char *const kind_names[] = { "length", "mass", "temperature", "volume" };

/* One unit. For linear kinds, 1 unit = num/den base units (m, kg, l), both exact integers, so a
 * conversion is v * a / b with small exact integers a and b after cancelling common factors (1 ft in
 * inches is exactly 12, 5 mm in cm exactly 0.5). Temperatures use `temp` and the formulas below. */
typedef struct {
    const char *name;
    enum unit_kind kind;
    uint64_t num;
    uint64_t den;
    char temp; /* 'C', 'F', 'K' for temperatures, 0 otherwise */
} unit;

static const unit units[] = {
    /* length; base m. International yard and pound agreement (1959): 1 yd = 0.9144 m exactly. */
    { "m",   KIND_LENGTH, 1, 1, 0 },
    { "km",  KIND_LENGTH, 1000, 1, 0 },
    { "cm",  KIND_LENGTH, 1, 100, 0 },
    { "mm",  KIND_LENGTH, 1, 1000, 0 },
    { "mi",  KIND_LENGTH, 1609344, 1000, 0 },  /* 1760 yd */
    { "ft",  KIND_LENGTH, 3048, 10000, 0 },    /* yd / 3 */
    { "in",  KIND_LENGTH, 254, 10000, 0 },     /* ft / 12 */
    { "yd",  KIND_LENGTH, 9144, 10000, 0 },
    /* mass; base kg. */
    { "kg",  KIND_MASS, 1, 1, 0 },
    { "g",   KIND_MASS, 1, 1000, 0 },
    { "lb",  KIND_MASS, 45359237, 100000000, 0 },   /* avoirdupois pound, 0.45359237 kg exactly */
    { "oz",  KIND_MASS, 45359237, 1600000000, 0 },  /* lb / 16 */
    /* temperature */
    { "C",   KIND_TEMPERATURE, 0, 0, 'C' },
    { "F",   KIND_TEMPERATURE, 0, 0, 'F' },
    { "K",   KIND_TEMPERATURE, 0, 0, 'K' },
    /* volume; base l. US liquid gallon = 231 in^3 = 3.785411784 l exactly; US customary cup = gal / 16. */
    { "l",   KIND_VOLUME, 1, 1, 0 },
    { "ml",  KIND_VOLUME, 1, 1000, 0 },
    { "gal", KIND_VOLUME, 3785411784u, 1000000000u, 0 },
    { "cup", KIND_VOLUME, 3785411784u, 16000000000u, 0 },
};

#define UNIT_COUNT (sizeof units / sizeof units[0])

/* Must list exactly the names in `units` (init() checks that every name appears). */
#define UNIT_ENUM \
    "[\"m\",\"km\",\"cm\",\"mm\",\"mi\",\"ft\",\"in\",\"yd\",\"kg\",\"g\",\"lb\",\"oz\"," \
    "\"C\",\"F\",\"K\",\"l\",\"ml\",\"gal\",\"cup\"]"

static const unit *find_unit(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < UNIT_COUNT; i++) {
        if (strlen(units[i].name) == len && memcmp(units[i].name, name, len) == 0) return &units[i];
    }
    return NULL;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* x * y, exactly if it fits in 64 bits (and then exactly as a double if below 2^53). */
static double mul_u64(uint64_t x, uint64_t y)
{
    if (x != 0 && y > UINT64_MAX / x) return (double)x * (double)y;
    return (double)(x * y);
}

static double convert_linear(double v, const unit *from, const unit *to)
{
    /* v [from] = v * from.num/from.den [base] = v * (from.num * to.den) / (from.den * to.num) [to] */
    uint64_t g1 = gcd_u64(from->num, to->num);
    uint64_t g2 = gcd_u64(from->den, to->den);
    double a = mul_u64(from->num / g1, to->den / g2);
    double b = mul_u64(from->den / g2, to->num / g1);
    double r = v * a / b;
    if (!isfinite(r)) r = v * (a / b); /* v * a overflowed although the result may not */
    return r;
}

static double to_celsius(char u, double v)
{
    switch (u) {
    case 'F': return (v - 32.0) * 5.0 / 9.0;
    case 'K': return v - 273.15;
    default: return v;
    }
}

static double from_celsius(char u, double c)
{
    switch (u) {
    case 'F': return c * 9.0 / 5.0 + 32.0;
    case 'K': return c + 273.15;
    default: return c;
    }
}

/* Absolute zero in each temperature unit. */
static double absolute_zero(char u)
{
    switch (u) {
    case 'F': return -459.67;
    case 'K': return 0.0;
    default: return -273.15;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* A small JSON reader for one flat object                                                         */
/* ---------------------------------------------------------------------------------------------- */

#define JSON_MAX_DEPTH 32     /* nesting allowed inside members we skip */
#define NUMBER_MAX_CHARS 400  /* longest number token we convert (1e-300 written out is ~305) */
#define NAME_CAP 32           /* bytes kept of a "from"/"to" string, NUL included */

typedef struct {
    const unsigned char *start;
    const unsigned char *p;
    const unsigned char *end;
} reader;

/* A bounded output for decoded string bytes: counts every byte, stores those that fit, always leaves
 * room for a NUL. `buf` may be NULL to only validate. */
typedef struct {
    char *buf;
    size_t cap;
    size_t len;
} sink;

static void sink_put(sink *s, const unsigned char *bytes, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++, s->len++) {
        if (s->buf != NULL && s->len + 1 < s->cap) s->buf[s->len] = (char)bytes[i];
    }
    if (s->buf != NULL && s->cap > 0) s->buf[s->len < s->cap ? s->len : s->cap - 1] = '\0';
}

static int sink_overflowed(const sink *s) { return s->len >= s->cap; }

static int peek(const reader *r) { return r->p < r->end ? *r->p : -1; }

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int consume(reader *r, int c)
{
    if (peek(r) != c) return 0;
    r->p++;
    return 1;
}

static void skip_ws(reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static int read_hex4(reader *r, unsigned *out)
{
    unsigned v = 0;
    int i;
    if (r->end - r->p < 4) return 0;
    for (i = 0; i < 4; i++) {
        int c = r->p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    r->p += 4;
    *out = v;
    return 1;
}

static void put_code_point(sink *s, unsigned cp)
{
    unsigned char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | (cp >> 6));
        b[1] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (cp >> 12));
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        b[0] = (unsigned char)(0xF0 | (cp >> 18));
        b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (unsigned char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    sink_put(s, b, n);
}

/* One raw multi-byte UTF-8 sequence starting at r->p (first byte >= 0x80): well-formed per RFC 3629
 * (no overlong forms, no surrogates, nothing above U+10FFFF) and entirely inside the input. */
static int read_utf8_sequence(reader *r, sink *s)
{
    const unsigned char *p = r->p;
    size_t avail = (size_t)(r->end - p), n, i;
    unsigned cp, c = p[0];
    if (c >= 0xC2 && c <= 0xDF) { n = 2; cp = c & 0x1Fu; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; cp = c & 0x0Fu; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; cp = c & 0x07u; }
    else return 0;
    if (avail < n) return 0;
    for (i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    sink_put(s, p, n);
    r->p += n;
    return 1;
}

/* A JSON string at r->p, decoded into `s`. Returns 1, or 0 if malformed. */
static int read_string(reader *r, sink *s)
{
    if (!consume(r, '"')) return 0;
    for (;;) {
        int c = peek(r);
        if (c < 0) return 0;                  /* unterminated */
        if (c == '"') {
            r->p++;
            return 1;
        }
        if (c < 0x20) return 0;               /* raw control character */
        if (c >= 0x80) {
            if (!read_utf8_sequence(r, s)) return 0;
            continue;
        }
        r->p++;
        if (c != '\\') {
            unsigned char b = (unsigned char)c;
            sink_put(s, &b, 1);
            continue;
        }
        c = peek(r);
        if (c < 0) return 0;
        r->p++;
        switch (c) {
        case '"': case '\\': case '/': {
            unsigned char b = (unsigned char)c;
            sink_put(s, &b, 1);
            break;
        }
        case 'b': put_code_point(s, 0x08); break;
        case 'f': put_code_point(s, 0x0C); break;
        case 'n': put_code_point(s, 0x0A); break;
        case 'r': put_code_point(s, 0x0D); break;
        case 't': put_code_point(s, 0x09); break;
        case 'u': {
            unsigned cp, lo;
            if (!read_hex4(r, &cp)) return 0;
            if (cp >= 0xD800 && cp <= 0xDBFF) {  /* high surrogate: a low one must follow */
                if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u') return 0;
                r->p += 2;
                if (!read_hex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF) return 0;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return 0;                        /* lone low surrogate */
            }
            put_code_point(s, cp);
            break;
        }
        default:
            return 0;
        }
    }
}

/* A JSON number at r->p (RFC 8259 grammar); on success *tok and *tok_len give its text. */
static int scan_number(reader *r, const unsigned char **tok, size_t *tok_len)
{
    const unsigned char *b = r->p;
    (void)consume(r, '-');
    if (consume(r, '0')) {
        /* a leading zero stands alone */
    } else if (is_digit(peek(r))) {
        while (is_digit(peek(r))) r->p++;
    } else {
        return 0;
    }
    if (consume(r, '.')) {
        if (!is_digit(peek(r))) return 0;
        while (is_digit(peek(r))) r->p++;
    }
    if (peek(r) == 'e' || peek(r) == 'E') {
        r->p++;
        if (peek(r) == '+' || peek(r) == '-') r->p++;
        if (!is_digit(peek(r))) return 0;
        while (is_digit(peek(r))) r->p++;
    }
    *tok = b;
    *tok_len = (size_t)(r->p - b);
    return 1;
}

static int read_literal(reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return 0;
    r->p += n;
    return 1;
}

/* Validates and skips any JSON value (leading whitespace included), nesting at most JSON_MAX_DEPTH. */
static int skip_value(reader *r, int depth)
{
    const unsigned char *tok;
    size_t tok_len;
    sink none = { NULL, 0, 0 };
    int c;
    skip_ws(r);
    c = peek(r);
    switch (c) {
    case '"':
        return read_string(r, &none);
    case 't':
        return read_literal(r, "true");
    case 'f':
        return read_literal(r, "false");
    case 'n':
        return read_literal(r, "null");
    case '{':
        if (depth >= JSON_MAX_DEPTH) return 0;
        r->p++;
        skip_ws(r);
        if (consume(r, '}')) return 1;
        for (;;) {
            skip_ws(r);
            if (!read_string(r, &none)) return 0;
            skip_ws(r);
            if (!consume(r, ':')) return 0;
            if (!skip_value(r, depth + 1)) return 0;
            skip_ws(r);
            if (consume(r, '}')) return 1;
            if (!consume(r, ',')) return 0;
        }
    case '[':
        if (depth >= JSON_MAX_DEPTH) return 0;
        r->p++;
        skip_ws(r);
        if (consume(r, ']')) return 1;
        for (;;) {
            if (!skip_value(r, depth + 1)) return 0;
            skip_ws(r);
            if (consume(r, ']')) return 1;
            if (!consume(r, ',')) return 0;
        }
    default:
        if (c == '-' || is_digit(c)) return scan_number(r, &tok, &tok_len);
        return 0;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading the input                                                                               */
/* ---------------------------------------------------------------------------------------------- */

typedef struct {
    int has_value, has_from, has_to;
    double value;
    char from[NAME_CAP];
    size_t from_len; /* decoded length; may exceed NAME_CAP - 1 (then `from` holds a prefix) */
    char to[NAME_CAP];
    size_t to_len;
} conversion_input;

static int key_is(const sink *key, const char *name)
{
    size_t n = strlen(name);
    return !sink_overflowed(key) && key->len == n && memcmp(key->buf, name, n) == 0;
}

/* Writes a short, safe rendering of a decoded string (valid UTF-8, maybe with control characters or
 * NULs, maybe cut short by its buffer) for use inside a message. */
static void describe_name(char *out, size_t cap, const char *s, size_t len, size_t stored)
{
    const size_t show_max = 24;
    size_t n = stored < len ? stored : len, i, o = 0;
    int cut = 0;
    if (n > show_max) n = show_max;
    if (n < len) cut = 1;
    /* never end inside a UTF-8 sequence */
    while (n > 0 && n < stored && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    for (i = 0; i < n && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        out[o++] = (c < 0x20 || c == 0x7F || c == '"' || c == '\\') ? '?' : (char)c;
    }
    if (cut && o + 4 < cap) {
        memcpy(out + o, "\xE2\x80\xA6", 3); /* U+2026 HORIZONTAL ELLIPSIS */
        o += 3;
    }
    out[o < cap ? o : cap - 1] = '\0';
}

/* Parses `json` (`len` bytes) into `in`. Returns 1, or 0 with a message in `err`. */
static int parse_input(const char *json, size_t len, conversion_input *in, char *err, size_t err_cap)
{
    reader r;
    r.start = (const unsigned char *)json;
    r.p = r.start;
    r.end = r.start + len;

    memset(in, 0, sizeof *in);
    skip_ws(&r);
    if (!consume(&r, '{')) goto malformed;
    skip_ws(&r);
    if (!consume(&r, '}')) {
        for (;;) {
            char key_buf[16];
            sink key = { key_buf, sizeof key_buf, 0 };
            skip_ws(&r);
            if (!read_string(&r, &key)) goto malformed;
            skip_ws(&r);
            if (!consume(&r, ':')) goto malformed;
            skip_ws(&r);

            if (key_is(&key, "value")) {
                const unsigned char *tok;
                size_t tok_len;
                char number[NUMBER_MAX_CHARS + 1];
                if (in->has_value) {
                    snprintf(err, err_cap, "\"value\" appears more than once");
                    return 0;
                }
                if (!(peek(&r) == '-' || is_digit(peek(&r)))) {
                    if (!skip_value(&r, 0)) goto malformed;
                    snprintf(err, err_cap, "\"value\" must be a number");
                    return 0;
                }
                if (!scan_number(&r, &tok, &tok_len)) goto malformed;
                if (tok_len > NUMBER_MAX_CHARS) {
                    snprintf(err, err_cap, "\"value\" has more than %d characters", NUMBER_MAX_CHARS);
                    return 0;
                }
                memcpy(number, tok, tok_len);
                number[tok_len] = '\0';
                in->value = strtod(number, NULL);
                if (!isfinite(in->value)) {
                    snprintf(err, err_cap, "\"value\" is too large to represent");
                    return 0;
                }
                in->has_value = 1;
            } else if (key_is(&key, "from") || key_is(&key, "to")) {
                int is_from = key_is(&key, "from");
                sink name = { is_from ? in->from : in->to, NAME_CAP, 0 };
                if ((is_from && in->has_from) || (!is_from && in->has_to)) {
                    snprintf(err, err_cap, "\"%s\" appears more than once", is_from ? "from" : "to");
                    return 0;
                }
                if (peek(&r) != '"') {
                    if (!skip_value(&r, 0)) goto malformed;
                    snprintf(err, err_cap, "\"%s\" must be a string (a unit name)", is_from ? "from" : "to");
                    return 0;
                }
                if (!read_string(&r, &name)) goto malformed;
                if (is_from) {
                    in->has_from = 1;
                    in->from_len = name.len;
                } else {
                    in->has_to = 1;
                    in->to_len = name.len;
                }
            } else {
                if (!skip_value(&r, 0)) goto malformed; /* unknown members are ignored */
            }

            skip_ws(&r);
            if (consume(&r, '}')) break;
            if (!consume(&r, ',')) goto malformed;
        }
    }
    skip_ws(&r);
    if (r.p != r.end) goto malformed;

    if (!in->has_value || !in->has_from || !in->has_to) {
        snprintf(err, err_cap, "missing required member \"%s\"",
                 !in->has_value ? "value" : !in->has_from ? "from" : "to");
        return 0;
    }
    return 1;

malformed:
    snprintf(err, err_cap, "input is not a valid JSON object (error at byte %lu of %lu)",
             (unsigned long)(r.p - r.start), (unsigned long)len);
    return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Conversion                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Shortest of %.15g/%.16g/%.17g that reads back as the same double (finite values only). */
static void format_json_number(char *buf, size_t cap, double v)
{
    int precision;
    for (precision = 15; precision <= 17; precision++) {
        snprintf(buf, cap, "%.*g", precision, v);
        if (strtod(buf, NULL) == v) return;
    }
}

static void unknown_unit_message(char *msg, size_t cap, const char *member, const char *name,
                                 size_t len)
{
    char shown[64];
    size_t i, used;
    describe_name(shown, sizeof shown, name, len, NAME_CAP - 1);
    snprintf(msg, cap, "unknown unit \"%s\" in \"%s\"; supported units: ", shown, member);
    used = strlen(msg);
    for (i = 0; i < UNIT_COUNT && used < cap; i++) {
        int n = snprintf(msg + used, cap - used, "%s%s", i ? ", " : "", units[i].name);
        if (n < 0) break;
        used += (size_t)n;
    }
}

/* Runs one conversion. Fills `result` (JSON, NUL-terminated; *result_len 0 if none) and `message`. */
static int32_t convert(const char *json, size_t len, char *result, size_t result_cap,
                       size_t *result_len, char *message, size_t message_cap)
{
    conversion_input in;
    const unit *from, *to;
    double out;
    char value_json[40];
    int n;

    *result_len = 0;
    if (!parse_input(json, len, &in, message, message_cap)) return SKH_STATUS_INVALID_INPUT;

    from = in.from_len < NAME_CAP ? find_unit(in.from, in.from_len) : NULL;
    if (from == NULL) {
        unknown_unit_message(message, message_cap, "from", in.from, in.from_len);
        return SKH_STATUS_INVALID_INPUT;
    }
    to = in.to_len < NAME_CAP ? find_unit(in.to, in.to_len) : NULL;
    if (to == NULL) {
        unknown_unit_message(message, message_cap, "to", in.to, in.to_len);
        return SKH_STATUS_INVALID_INPUT;
    }
    if (from->kind != to->kind) {
        snprintf(message, message_cap,
                 "cannot convert %s (%s) to %s (%s): both units must measure the same kind of quantity",
                 from->name, kind_names[from->kind], to->name, kind_names[to->kind]);
        n = snprintf(result, result_cap,
                     "{\"from\":\"%s\",\"fromKind\":\"%s\",\"to\":\"%s\",\"toKind\":\"%s\"}",
                     from->name, kind_names[from->kind], to->name, kind_names[to->kind]);
        if (n > 0 && (size_t)n < result_cap) *result_len = (size_t)n;
        return SKH_STATUS_INVALID_INPUT;
    }

    if (in.value == 0.0) in.value = 0.0; /* -0 → 0 */
    if (from->kind == KIND_TEMPERATURE) {
        if (in.value < absolute_zero(from->temp)) {
            snprintf(message, message_cap, "%.6g %s is below absolute zero (%.6g %s)", in.value,
                     from->name, absolute_zero(from->temp), from->name);
            return SKH_STATUS_INVALID_INPUT;
        }
        out = from == to ? in.value : from_celsius(to->temp, to_celsius(from->temp, in.value));
        if (out < absolute_zero(to->temp)) out = absolute_zero(to->temp); /* rounding only */
    } else {
        out = from == to ? in.value : convert_linear(in.value, from, to);
    }
    if (!isfinite(out)) {
        snprintf(message, message_cap, "%.6g %s in %s is too large to represent", in.value, from->name,
                 to->name);
        return SKH_STATUS_INVALID_INPUT;
    }
    if (out == 0.0) out = 0.0;

    snprintf(message, message_cap, "%.6g %s = %.6g %s", in.value, from->name, out, to->name);
    format_json_number(value_json, sizeof value_json, out);
    /* Names come from the table and the message is ASCII digits and names: nothing needs escaping. */
    n = snprintf(result, result_cap, "{\"value\":%s,\"from\":\"%s\",\"to\":\"%s\",\"text\":\"%s\"}",
                 value_json, from->name, to->name, message);
    if (n < 0 || (size_t)n >= result_cap) {
        snprintf(message, message_cap, "internal error: result does not fit its buffer");
        return SKH_STATUS_FAILED;
    }
    *result_len = (size_t)n;
    return SKH_STATUS_OK;
}

/* ---------------------------------------------------------------------------------------------- */
/* The ABI surface                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

#define INTENT_CONVERT "units.convert"

/* Set once in init(), before any invoke (the host orders init before every invoke); read-only after. */
static locale_t c_locale = (locale_t)0;

#define HOST_HAS(host, field) \
    ((host) != NULL && (host)->struct_size >= offsetof(skh_host, field) + sizeof((host)->field) && \
     (host)->field != NULL)

static void host_log(const skh_host *host, int32_t level, const char *message)
{
    if (HOST_HAS(host, log)) host->log(NULL, level, message);
}

static int32_t units_init(const skh_host *host);
static void units_invoke(const skh_call *call);
static int32_t units_health(const skh_host *host, const char *context_json, char **detail);
static void units_release(void *pointer);

static const skh_intent intents[] = {
    {
        .struct_size = sizeof(skh_intent),
        .flags = SKH_INTENT_READ_ONLY | SKH_INTENT_IDEMPOTENT,
        .name = INTENT_CONVERT,
        .description =
            "Convert a number from one unit to another of the same kind: length (m, km, cm, mm, mi, ft, in, "
            "yd), mass (kg, g, lb, oz), temperature (C, F, K) or volume (l, ml, US gal, US cup).",
        .input_schema =
            "{\"type\":\"object\","
            "\"properties\":{"
            "\"value\":{\"type\":\"number\",\"description\":\"The amount to convert.\"},"
            "\"from\":{\"type\":\"string\",\"enum\":" UNIT_ENUM ",\"description\":\"The unit of value.\"},"
            "\"to\":{\"type\":\"string\",\"enum\":" UNIT_ENUM ",\"description\":\"The unit to convert to; "
            "must measure the same kind of quantity as from.\"}},"
            "\"required\":[\"value\",\"from\",\"to\"],"
            "\"additionalProperties\":false}",
        .output_schema =
            "{\"type\":\"object\","
            "\"properties\":{"
            "\"value\":{\"type\":\"number\",\"description\":\"The converted amount.\"},"
            "\"from\":{\"type\":\"string\",\"enum\":" UNIT_ENUM "},"
            "\"to\":{\"type\":\"string\",\"enum\":" UNIT_ENUM "},"
            "\"text\":{\"type\":\"string\",\"description\":\"The conversion as a sentence, e.g. 5 km = 3.10686 mi.\"}},"
            "\"required\":[\"value\",\"from\",\"to\",\"text\"],"
            "\"additionalProperties\":false}",
        .surfaces = SKH_SURFACE_ALL,
        .priority = 0,
        .confidence = 1.0,
        .keywords =
            "{\"en\":[\"convert\",\"how many\",\"kilometers\",\"miles\",\"fahrenheit\",\"celsius\",\"pounds\",\"kilograms\","
            "\"feet\",\"inches\",\"meters\",\"grams\",\"ounces\",\"liters\",\"gallons\",\"cups\",\"yards\",\"kelvin\"],"
            "\"zh\":[\"换算\",\"转换\",\"等于多少\",\"公里\",\"英里\",\"摄氏度\",\"华氏度\",\"英尺\",\"英寸\",\"千克\",\"公斤\","
            "\"磅\",\"盎司\",\"毫升\",\"加仑\"]}",
        .examples =
            "["
            "{\"lang\":\"en\",\"text\":\"how many miles is 5 km\",\"input\":{\"value\":5,\"from\":\"km\",\"to\":\"mi\"}},"
            "{\"lang\":\"en\",\"text\":\"convert 350 F to C\",\"input\":{\"value\":350,\"from\":\"F\",\"to\":\"C\"}},"
            "{\"lang\":\"en\",\"text\":\"2 cups in ml\",\"input\":{\"value\":2,\"from\":\"cup\",\"to\":\"ml\"}},"
            "{\"lang\":\"zh\",\"text\":\"5公里等于多少英里\",\"input\":{\"value\":5,\"from\":\"km\",\"to\":\"mi\"}},"
            "{\"lang\":\"zh\",\"text\":\"把3磅换算成千克\",\"input\":{\"value\":3,\"from\":\"lb\",\"to\":\"kg\"}},"
            "{\"lang\":\"en\",\"text\":\"what is 100 F in Celsius\",\"input\":{\"value\":100,\"from\":\"F\",\"to\":\"C\"}},"
            "{\"lang\":\"en\",\"text\":\"how many feet are in 2 meters\",\"input\":{\"value\":2,\"from\":\"m\",\"to\":\"ft\"}},"
            "{\"lang\":\"en\",\"text\":\"half a gallon in liters\",\"input\":{\"value\":0.5,\"from\":\"gal\",\"to\":\"l\"}},"
            "{\"lang\":\"zh\",\"text\":\"8公里是几英里\",\"input\":{\"value\":8,\"from\":\"km\",\"to\":\"mi\"}},"
            "{\"lang\":\"zh\",\"text\":\"一斤等于多少克\",\"input\":{\"value\":500,\"from\":\"g\",\"to\":\"g\"}},"
            "{\"lang\":\"zh\",\"text\":\"6英尺是多少厘米\",\"input\":{\"value\":6,\"from\":\"ft\",\"to\":\"cm\"}}"
            "]",
    },
};

static const skh_skill skill = {
    .abi_major = SKH_ABI_VERSION_MAJOR,
    .abi_minor = SKH_ABI_VERSION_MINOR,
    .struct_size = sizeof(skh_skill),
    .flags = SKH_SKILL_THREAD_SAFE,
    .id = "dev.skillhost.units",
    .name = "Units",
    .version = "1.0.0",
    .category = "utilities",
    .vendor = "skillhost",
    .description = "Converts amounts between units of length, mass, temperature and volume (metric, "
                   "imperial and US customary).",
    .toolchain = NULL, /* no Swift code */
    .intent_count = (uint32_t)(sizeof intents / sizeof intents[0]),
    .intents = intents,
    .init = units_init,
    .invoke = units_invoke,
    .health = units_health,
    .release = units_release,
    /* ABI 1.2: it computes and nothing else — no network, no files beyond its own, no environment,
     * no programs — so it declares no permissions (NULL) and its worker gets nothing. */
    .permissions = NULL,
};

static int32_t units_init(const skh_host *host)
{
    char line[128];
    size_t i;

    if (host == NULL || host->abi_major != SKH_ABI_VERSION_MAJOR) return 1;
    for (i = 0; i < UNIT_COUNT; i++) { /* the schema's enum and the table must agree */
        char quoted[16];
        snprintf(quoted, sizeof quoted, "\"%s\"", units[i].name);
        if (strstr(UNIT_ENUM, quoted) == NULL) {
            snprintf(line, sizeof line, "units: unit %s is missing from the schema enum", units[i].name);
            host_log(host, SKH_LOG_ERROR, line);
            return 1;
        }
    }
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c_locale == (locale_t)0) {
        host_log(host, SKH_LOG_ERROR, "units: cannot create the C locale (newlocale failed)");
        return 1;
    }
    snprintf(line, sizeof line, "units: ready, %u units of length, mass, temperature and volume",
             (unsigned)UNIT_COUNT);
    host_log(host, SKH_LOG_INFO, line);
    return 0;
}

static void units_invoke(const skh_call *call)
{
    char result[512];
    char message[512];
    size_t result_len = 0, input_len;
    int32_t status;
    locale_t previous = (locale_t)0;

    if (call == NULL ||
        call->struct_size < offsetof(skh_call, complete) + sizeof call->complete || call->complete == NULL)
        return; /* nothing we could complete */

    if (call->intent == NULL || strcmp(call->intent, INTENT_CONVERT) != 0) {
        call->complete(call, SKH_STATUS_FAILED, NULL, 0, "units: this skill has no such intent");
        return;
    }
    if (call->input_json == NULL) {
        call->complete(call, SKH_STATUS_INVALID_INPUT, NULL, 0, "no input: expected {\"value\",\"from\",\"to\"}");
        return;
    }

    input_len = strnlen(call->input_json, call->input_len); /* never past input_len, nor past a NUL */
    if (c_locale != (locale_t)0) previous = uselocale(c_locale);
    status = convert(call->input_json, input_len, result, sizeof result, &result_len, message, sizeof message);
    if (c_locale != (locale_t)0) uselocale(previous);

    call->complete(call, status, result_len > 0 ? result : NULL, result_len, message);
}

static int32_t units_health(const skh_host *host, const char *context_json, char **detail)
{
    (void)host;
    (void)context_json; /* the units table needs no configuration */
    if (detail != NULL) {
        char *text = malloc(48);
        if (text != NULL) {
            snprintf(text, 48, "{\"message\":\"%u units\"}", (unsigned)UNIT_COUNT);
            *detail = text;
        }
    }
    return SKH_HEALTH_OK;
}

static void units_release(void *pointer)
{
    free(pointer);
}

UNITS_EXPORT const skh_skill *skillhost_entry(void);

UNITS_EXPORT const skh_skill *skillhost_entry(void)
{
    return &skill;
}
