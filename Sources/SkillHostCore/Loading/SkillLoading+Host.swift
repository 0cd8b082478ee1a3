import Glibc
import SkillLoading

// The host's side of SkillLoading: where its one error value becomes a `SkillError` or a `Refusal`
// (the only two places), and how a registered skill's file is opened and checked for loading.

extension SkillError {
    /// A load failure as a call's error: `load_failed` or `incompatible`, with the message and hint.
    init(_ e: SkillLoadError, skillID: String?) {
        self.init(e.kind == .incompatible ? .incompatible : .loadFailed, e.message, hint: e.hint, skillID: skillID)
    }
}

extension Refusal {
    /// A load failure as the reason a file in a skill folder was not registered.
    init(file: String, _ e: SkillLoadError) {
        let reason: Reason
        switch e.reason {
        case .notASkill: reason = .notASkill
        case .truncated: reason = .truncated
        case .wrongArchitecture: reason = .wrongArchitecture
        case .loadFailed, .changedSinceScan: reason = .loadFailed
        case .missingSymbol: reason = .missingSymbol
        case .badManifest: reason = .badManifest
        case .abiMismatch: reason = .abiMismatch
        case .insecurePermissions: reason = .insecurePermissions
        }
        self.init(file: file, reason: reason, message: e.message, hint: e.hint)
    }
}

extension SkillFile {
    /// What the scan recorded, as the loader compares it.
    var identity: DescriptorIdentity { DescriptorIdentity(device: device, inode: inode, size: size, mtimeNs: mtimeNs) }
}

extension RegisteredSkill {
    /// Opens the skill's file and checks it (the file and every folder above it) and that it is still
    /// the file the scan recorded: the descriptor to load in this process or to hand to a worker.
    func openChecked() -> Result<CheckedSkillFile, SkillError> {
        CheckedSkillFile.open(file.path, expected: file.identity).mapError { SkillError($0, skillID: id) }
    }
}
