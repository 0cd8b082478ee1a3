/// The prose of each command's help: what it does, what it prints, how it exits. Kept next to each
/// other so they read as one manual; usage lines, options and examples come from `CommandTable`.
enum Help {
    static let list = """
    Lists every registered skill, and older versions of a skill id that a newer file shadows. With
    --all, also the files that were refused and why, and the intents that more than one skill
    declares. --json prints the same object with or without --all: {"version","skills":[…],
    "refused":[…],"shadowed":[…],"conflicts":[…]}, each skill with its "shadows".
    """

    static let describe = """
    Shows one intent the way a person or a model needs it to call it: each input with its type,
    whether it is required, its allowed values, default, range and description, the example
    inputs, the flags (read-only, destructive, idempotent, open-world), the surfaces that may call
    it, the skill that serves it (id, version, file) and the MCP tool name agents see. Error hints
    about bad input point here. --json prints {"version","intent","mcpTool","skill":{…},"flags":[…],
    "inputs":[{"name","type","required","enum","default","description",…}],"inputSchema",
    "outputSchema","examples"}. Exits 11 (no_skill) if no registered skill declares INTENT.
    """

    static let completions = """
    Prints a completion script for SHELL, made from the same table as the help: commands, options,
    option values (folders, files, choices) and, from the skills registered now, intent names and
    skill ids. `make install` puts them where bash, zsh and fish look.
    """

    static let inspect = """
    Reads FILE's manifest in a separate process (so a crashing skill cannot hurt) and validates it,
    without registering it. Exits with the error kind's code if the file would be refused.
    """

    static let invoke = """
    Calls INTENT. The input (default {}) is validated against the intent's schema first. The skill
    runs in its own worker process (unless the config lists it under "trusted"), so a crash, a hang
    or a runaway allocation ends as an error (crashed, timeout), never as the host's crash.
    A quarantined skill is not called. When the chosen skill fails with crashed, timeout or
    unavailable and the intent is read-only or idempotent, the call goes to the next skill that
    declares the intent and is not quarantined or unavailable ("fallback" in --json).
    Policy (the config's "policy") decides who may call what: a destructive intent asks a person at a
    terminal to confirm (on /dev/tty) and needs --yes from scripts; rate limits and denials end with
    kind denied naming the rule. Every call is appended to the audit log (state folder, audit.jsonl).
    --idempotency-key K: a repeated K (same intent and input) within the window (config
    "idempotencyWindowSeconds", default 24 h) returns the first call's result, marked "replayed",
    instead of calling again; the same K with other input is invalid_input. Failed calls are not kept.
    --json prints {"ok":true,"skill":ID,"result":…} or {"ok":false,"error":{"kind":…,"message":…}};
    the exit code names the error kind (see skillhost --help).
    """

    static let mcp = """
    An MCP server (protocol 2025-11-25; 2025-06-18 and 2024-11-05 too), for agent hosts. One tool per
    intent that policy lets agents call (destructive ones only when the config's
    policy.agent.allowDestructive names them). Skills added, replaced or removed in the skill folder
    while it runs appear as notifications/tools/list_changed. Logs go to stderr.
    Without --http: on stdin/stdout, for an agent host to start; it exits when stdin ends.
    Client config: {"mcpServers":{"skillhost":{"command":"/path/skillhost","args":["mcp"]}}}
    With --http [HOST:]PORT: Streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1;
    PORT 0 picks a free one); it prints "skillhost mcp: listening on http://HOST:PORT/mcp" on stderr
    once it serves and stops on SIGINT or SIGTERM. Clients must send "Authorization: Bearer TOKEN"
    when a token is given (--token-file, or $SKILLHOST_MCP_TOKEN); without one only a loopback HOST
    is accepted. On a loopback HOST a request's Host header must be 127.0.0.1:PORT, localhost:PORT or
    [::1]:PORT (421 otherwise, against DNS rebinding); --allow-host NAME adds the name a reverse proxy
    forwards. Request bodies may be chunked.
    """

    static let health = """
    Probes every registered skill now (each with the health deadline, in the worker process its calls
    use) and records the answers in each skill's health state (ok, degraded, unavailable,
    quarantined), which `list` then shows. A quarantined skill is not probed. Exits 1 if any skill
    is not ok.
    """

    static let install = """
    Validates FILE as a skill (as `skillhost validate` does), then copies it into the skill folder
    under its own name through a temporary file and an atomic rename, so no scan ever sees half a
    file. A skill that fails a check of validate is refused (exit 1, the failed checks listed) unless
    --force; warnings do not block, and --force never installs a file the scan would refuse. When
    another file already provides the skill id, only a newer version is installed (the older file
    stays, shadowed, for a rollback); a file with the same name is replaced.

    A skill that asks for permissions (network, files, environment variables, programs) needs your
    consent: on a terminal you are asked; otherwise give --grant. --grant all grants what it asks for
    now (a later version asking for more gets only this), --grant none nothing beyond its data folder,
    and a list grants exactly that: --grant network=HOST:PORT,read=PATH,write=PATH,env=NAME,programs.
    The grant is recorded in the config file ("grants"); the skill's worker can reach only that.
    """

    static let validate = """
    Checks FILE against the skill contract (skillhost.h) and prints one line per check, PASS, WARN,
    FAIL or SKIP, with what was expected, what was found and the fix:
      file          an ELF shared library that exports skillhost_entry; manifest read in a child process
      manifest      id, semver, category, intent names, schemas, example inputs valid; examples present
      abi           an ABI version and Swift toolchain this host serves
      load          a worker process (skillhost-worker serve) loads it and init succeeds
      health        health answers within the health deadline
      examples      each example input completes ok, with a result matching the output schema
      wrong-input   input that breaks the schema, sent without the host's check, gets invalid_input
      exactly-once  no call completed twice or never
      concurrency   a SKH_SKILL_THREAD_SAFE skill gives the same answers under 8 concurrent calls
      memory        the worker does not grow per call (VmRSS over 400 calls)
    The skill runs in a worker with an empty configuration section, a throwaway data folder and
    health state. Destructive intents are never called, open-world ones only with wrong input.
    --json prints {"file","id","version","ok","checks":[{"name","status","message","details"}]}.
    Exits 0 when no check failed, 1 when one did.
    """

    static let doctor = """
    Shows the skill search path (each folder, where it came from, whether it exists), then reports
    what is wrong and how to fix it: missing or insecure folders, refused files with their
    reasons, intents claimed by several skills, quarantined and unavailable skills. Exits 1 if it
    found a problem.
    """

    static let unblock = """
    Puts skill ID back to ok, so calls reach it again: use it after a skill was quarantined (it
    crashed too often, see `skillhost list`) once you know why. Replacing the skill's file lifts the
    quarantine too. Exits 11 (no_skill) if no registered skill has that id.
    """

    static let new = """
    Writes a standalone skill project into DIR/NAME (DIR: the current folder): for Swift, a SwiftPM
    package whose only dependency is the SDK (SkillKit) with one .dynamic product, an example intent
    with schemas, keywords and examples, a unit test and a README; for C, NAME.c against skillhost.h,
    a Makefile (-std=c99 -Wall -Wextra -Werror -pedantic) and a README. Building it gives a .so that
    `skillhost install` accepts as it is. NAME: lowercase letters, digits, - and _ ("weather-alerts");
    the skill id is com.example.NAME unless --id says otherwise. The project refers to the SDK
    (SkillKit sources and skillhost.h): --sdk PATH, else $SKILLHOST_SDK, else the checkout this
    skillhost was built in, else its install prefix (PREFIX/share/skillhost, PREFIX/include).
    """

    static let ask = """
    Understands a sentence in English or Chinese from what the installed skills declare (keywords and
    examples per intent), plans one step per intent, runs independent steps in parallel through the
    usual invoke path (schemas, deadlines, isolation, fallback), and answers in the sentence's
    language. On a terminal the phases show live on one line of stderr. Every request writes a trace
    to $XDG_STATE_HOME/skillhost/traces/ (see `skillhost traces`, `skillhost replay`).
    --now and --time-zone say what "today" and "明天" mean; --json prints the whole response: answer,
    status, intents with confidence, plan, steps, phases.
    Exit codes: 0 answered (also partly), 10 a question back, 11 not understood, 18 cancelled (Ctrl-C),
    else the first error's kind.
    Config: "agent": {"defaults": {"weather.forecast": {"place": "home"}}, "maxParallel": 4, "keepTraces": 200}.
    """

    static let replay = """
    Runs the request recorded in TRACE again, with the same text, "now", locale and time zone, against
    the skills installed now, and lists what differs from the recording: recognized intents and their
    parameters, the plan, each step's outcome and output, the answer. Intents that change something
    (not read-only or idempotent) are not run again unless --include-writes. --check exits 1 when
    anything differs, so a trace works as a regression test.
    """

    static let traces = """
    Lists the newest agent requests (default 20): id, status, duration, text.
    """
}
