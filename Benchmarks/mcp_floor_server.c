/* The "client + pipe floor" of the MCP bench (Benchmarks/mcp_bench.py): a server that answers each
 * JSON-RPC line on stdin at once, with no MCP layer and no skill. A request gets a tools/call-shaped
 * result carrying its "arguments" object back as structuredContent (and as text); a notification (no
 * "id") gets nothing. What the bench's client times against it is the client's own cost (Python JSON,
 * pipe writes and reads) plus two pipe crossings: the part of every server's round trip that no server
 * can remove.
 *
 * It trusts its input (the bench's own client): the id is copied verbatim, "arguments" by balanced
 * braces. Build: cc -O2 -o mcp_floor_server mcp_floor_server.c
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The value after "key": in line (whitespace skipped); its length through *len (scalar: up to , or };
 * object: balanced braces, strings respected). NULL when absent. */
static const char *member(const char *line, const char *key, size_t *len) {
    const char *p = strstr(line, key);
    if (!p) return NULL;
    p += strlen(key);
    while (*p == ' ' || *p == ':') p++;
    const char *q = p;
    if (*q == '{') {
        int depth = 0, in_string = 0;
        for (; *q; q++) {
            if (in_string) {
                if (*q == '\\' && q[1]) q++;
                else if (*q == '"') in_string = 0;
            } else if (*q == '"') {
                in_string = 1;
            } else if (*q == '{') {
                depth++;
            } else if (*q == '}' && --depth == 0) {
                q++;
                break;
            }
        }
    } else {
        while (*q && *q != ',' && *q != '}') q++;
    }
    *len = (size_t)(q - p);
    return p;
}

static void write_all(const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(1, p, n);
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

int main(void) {
    static char line[1 << 16], out[1 << 17];
    while (fgets(line, sizeof line, stdin)) {
        size_t idlen, arglen = 2;
        const char *id = member(line, "\"id\"", &idlen);
        if (!id) continue;
        const char *args = member(line, "\"arguments\"", &arglen);
        if (!args) args = "{}", arglen = 2;
        int n = snprintf(out, sizeof out,
                         "{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"%s\"}],"
                         "\"structuredContent\":%.*s,\"isError\":false,\"protocolVersion\":\"2025-11-25\"}}\n",
                         (int)idlen, id, "floor", (int)arglen, args);
        if (n > 0 && (size_t)n < sizeof out) write_all(out, (size_t)n);
    }
    return 0;
}
