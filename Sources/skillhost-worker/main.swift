// skillhost-worker — runs skill code outside the host process. Started by skillhost, not by hand.
//
//   skillhost-worker serve FILE --id ID --fd N --identity DEV:INO:SIZE:MTIME [--memory-mb N] [--open-files N] [--cpu-seconds N] [--parallel-invokes]
//       Loads one skill from descriptor N (5, opened and checked by the host) and serves the host's calls
//       over two pipes (it reads file descriptor 4 and writes file descriptor 3) with the framed protocol
//       of SkillWire (length-prefixed JSON). Resource limits are applied before the skill is loaded.
//       When the host goes away (the request pipe hangs up, even after the host was killed with
//       SIGKILL), this process and anything the skill forked end at once. (Serve/)
//
// What skills declare is read by another, smaller program: `skillhost-scan` (it starts faster
// without the Dispatch this one uses). Both apply the sandbox of SkillSandbox.
//
// This executable does not import Foundation: it starts fast and loads as little as possible next to
// the skills it runs. Frames and lines are built as bytes straight from the skill's C strings.
import Glibc

let arguments = CommandLine.arguments
if arguments.count >= 2 && arguments[1] == "serve" {
    runServeMode(Array(arguments.dropFirst(2)))
} else {
    let msg = "usage: skillhost-worker serve FILE --id ID --fd N --identity DEV:INO:SIZE:MTIME [--memory-mb N] [--open-files N] [--cpu-seconds N] [--parallel-invokes]\n(started by skillhost; not meant to be run by hand)\n"
    _ = msg.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
