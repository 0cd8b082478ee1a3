// skillhost-scan — reads what skills declare, in a sandboxed child process. Started by skillhost,
// not by hand.
//
//   skillhost-scan -
//       Receives the files over fd 4, a socket: messages of `COUNT` NUL, then per file
//       `DEV:INO:SIZE:MTIME` NUL `FILE` NUL, carrying the files' descriptors (opened and checked by the
//       host, which hands the files over in messages of up to 32 as it checks them; FILE names a file
//       in messages). Then loads every descriptor in order and calls each loaded file's entry — an
//       image without Swift at once, Swift images after every load — writing one line of JSON
//       describing what the skill declares (or the file's refusal), all to file descriptor 3 (the
//       host's result pipe). The host runs this with a deadline per step: a skill whose initializer or
//       entry crashes or hangs kills or stalls only this process, and the host knows which file and
//       step did it from the lines, which arrive in order — a "loaded" line after each Swift image's
//       load — and from the progress word on fd 5, set before each entry called right after its load.
//       (ScanMode.swift)
//
// A cold `skillhost list` waits for this process, so its start is on the critical path: it links the
// Swift core library and Glibc's overlay and nothing else — no Foundation, no Dispatch, and none of
// the modules the compiler imports implicitly (_Concurrency, _StringProcessing, which bring
// _RegexParser), which Package.swift turns off for this target and the modules it links
// (SkillWire, SkillLoading, SkillSandbox). EndToEndTests' ScanBinaryTests keeps it that way.
// Lines are built as bytes straight from the skill's C strings.
import Glibc

runScanMode(CommandLine.arguments.dropFirst())
