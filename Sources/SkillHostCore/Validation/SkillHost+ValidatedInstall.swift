/// Why `SkillHost.install(file:force:)` did not install a file.
public enum InstallRefusal: Error, Sendable {
    /// A check of `skillhost validate` that runs the skill failed (see `ValidationReport.failures`);
    /// `force` installs it anyway.
    case failedValidation(ValidationReport)
    /// The file cannot be a skill here (a refusal of the scan's checks, an id another file provides,
    /// a write that failed): the same errors as `install(file:)`, never overridden by `force`.
    case error(SkillError)
}

extension SkillHost {
    /// `skillhost install FILE [--force]`: validates `file` (`validate(file:)`), and installs it
    /// (`install(file:)`) only if no check failed — or, with `force`, if only checks that run the
    /// skill failed (load, health, examples, wrong input, exactly-once, concurrency, memory). Warnings
    /// never block. A file the scan's checks refuse gets the same error as from `install(file:)`.
    /// The report is returned either way.
    public func install(file: String, force: Bool, onCheck: ((ValidationCheck) -> Void)? = nil)
        -> (report: ValidationReport, outcome: Result<Installation, InstallRefusal>) {
        let report = validate(file: file, onCheck: onCheck)
        if report.refusal == nil && !report.ok && !force {
            return (report, .failure(.failedValidation(report)))
        }
        return (report, install(file: file).mapError { .error($0) })
    }
}
