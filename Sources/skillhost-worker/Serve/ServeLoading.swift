import Glibc
import SkillABI
import SkillLoading

// How `serve` gets its skill: the host opened the file once, checked it and every folder above it,
// and handed the descriptor over (`--fd`, normally 5) with the identity the scan recorded
// (`--identity`). The worker checks the descriptor again and loads exactly it (SkillLoading), never
// the path, which another user might have changed in between.

/// The checked descriptor `options` names, or a `load_failed` frame and exit.
func receiveSkillFile(_ options: ServeOptions) -> CheckedSkillFile {
    guard options.fd >= 0, let expected = DescriptorIdentity(text: options.identity) else {
        loadFailed("load_failed", "skillhost-worker serve: --fd N and --identity DEV:INO:SIZE:MTIME are required (the host hands over the checked skill file)")
    }
    switch CheckedSkillFile.adopt(fd: options.fd, path: options.file, expected: expected) {
    case .success(let file): return file
    case .failure(let e): loadFailed(e)
    }
}

/// Loads `file` and negotiates its ABI, checking it is skill `options.id`; or a `load_failed` frame and exit.
func loadSkill(_ file: CheckedSkillFile, _ options: ServeOptions) -> UnsafePointer<skh_skill> {
    switch SkillImage.open(file, expectedID: options.id) {
    case .success(let negotiated): return negotiated.skill
    case .failure(var e):
        if e.reason == .loadFailed && options.limits.memoryMB > 0 && e.message.contains("map") {
            e.message += " (this worker's address space is limited to \(options.limits.memoryMB) MB by workers.memoryLimitMB; raise it)"
        }
        loadFailed(e)
    }
}

/// Tells the host why the skill cannot be served (kind, message and hint), and exits.
func loadFailed(_ e: SkillLoadError) -> Never {
    let message = e.hint.map { "\(e.message) (\($0))" } ?? e.message
    switch e.kind {
    case .incompatible: loadFailed("incompatible", message)
    case .loadFailed: loadFailed("load_failed", message)
    }
}
