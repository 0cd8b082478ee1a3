@testable import SkillHostCore

/// Answers built by hand as trees, read as the host reads their text.
extension ScanAnswer {
    init?(_ json: JSON) {
        var b: [UInt8] = []
        json.write(to: &b)
        self.init(b)
    }
}

extension ManifestValidator {
    /// Validates an answer given as a tree: read as its text.
    static func validate(report: JSON, file: String, hostToolchain: String) -> Result<SkillManifest, Refusal> {
        guard let answer = ScanAnswer(report) else { return .failure(unreadable(file)) }
        return validate(report: answer, file: file, hostToolchain: hostToolchain)
    }
}
