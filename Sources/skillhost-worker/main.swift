// skillhost-worker — runs skill code outside the host process. Started by skillhost, not by hand.
//
//   skillhost-worker manifest -
//       Receives the files over fd 4, a socket: one message per file, `DEV:INO:SIZE:MTIME` NUL `FILE`,
//       carrying its descriptor (opened and checked by the host, which hands each file over as soon as
//       it is checked; FILE names it in messages). Then loads every descriptor in order, writing a
//       "loaded" line (or the file's refusal) after each, and calls each loaded file's entry — an
//       image without Swift at once, Swift images after every load — writing one line of JSON
//       describing what the skill declares, all to file descriptor 3 (the host's result pipe). The
//       host runs this with a deadline per step: a skill whose initializer or entry crashes or hangs
//       kills or stalls only this process, and the host knows which file and step did it because
//       lines arrive in order. (ManifestMode.swift)
//
//   skillhost-worker serve FILE --id ID --fd N --identity DEV:INO:SIZE:MTIME [--memory-mb N] [--open-files N] [--cpu-seconds N] [--parallel-invokes]
//       Loads one skill from descriptor N (opened and checked by the host) and serves the host's calls over file descriptor 3, a socketpair, with the
//       framed protocol of SkillWire (length-prefixed JSON). Resource limits are applied before the
//       skill is loaded. When the host goes away (the socket reaches end-of-file, even after the host
//       was killed with SIGKILL), this process and anything the skill forked end at once. (Serve/)
//
// This executable does not import Foundation: it starts fast and loads as little as possible next to
// the skills it runs. Frames and lines are built as bytes straight from the skill's C strings.
import Glibc

let arguments = CommandLine.arguments
if arguments.count >= 2 && arguments[1] == "manifest" {
    runManifestMode(arguments.dropFirst(2))
} else if arguments.count >= 2 && arguments[1] == "serve" {
    runServeMode(Array(arguments.dropFirst(2)))
} else {
    let msg = "usage: skillhost-worker manifest -\n       skillhost-worker serve FILE --id ID --fd N --identity DEV:INO:SIZE:MTIME [--memory-mb N] [--open-files N] [--cpu-seconds N] [--parallel-invokes]\n(started by skillhost; not meant to be run by hand)\n"
    _ = msg.withCString { write(2, $0, strlen($0)) }
    exit(2)
}
