public import AppFlipCore

/// The association-file checks of a local file (`appflip audit --aasa-file`), on its bytes. A hosted file is
/// checked by `AASAFileCheck`, with the hosting rules, through `HostedCheckRunner`.
public enum AssociationAudit {
    /// `aasa.valid` and `aasa.routes-link` for the document `json`, naming `source` (a path or URL) in
    /// the evidence.
    public static func run(json: [UInt8], source: String, appID: String, link: RawURL) -> [AuditResult] {
        let file: AssociationFile
        do throws(AASALoadError) {
            file = try AssociationFile(json: json)
        } catch {
            return [
                AuditResult(
                    .associationValid,
                    .fail,
                    "\(source) was refused: \(error.errors.count) error(s), first \(error.errors.first.map { "\($0)" } ?? "?")",
                    evidence: error.errors.map(\.description)
                ),
                AuditResult(.associationRoutesLink, .skipped, "the association file is invalid"),
            ]
        }
        let valid = AuditResult(
            .associationValid,
            file.warnings.isEmpty ? .pass : .warning,
            file.warnings.isEmpty ? "\(source) is valid" : "\(source) is valid, with \(file.warnings.count) warning(s)",
            evidence: file.warnings.map(\.description)
        )
        guard file.appIDs.contains(appID) else {
            return [
                valid,
                AuditResult(
                    .associationRoutesLink,
                    .fail,
                    "\(source) does not name \(appID)",
                    evidence: ["app ids: " + file.appIDs.joined(separator: ", ")]
                ),
            ]
        }
        let decision = file.decide(appID: appID, url: link)
        let routes: AuditResult =
            switch decision.outcome {
            case .match:
                AuditResult(.associationRoutesLink, .pass, "\(link) goes to \(appID) by \(decision.pointer ?? "?")")
            case .exclude:
                AuditResult(.associationRoutesLink, .fail, "\(link) is excluded for \(appID) by \(decision.pointer ?? "?")")
            case .noMatch:
                AuditResult(.associationRoutesLink, .fail, "no rule for \(appID) matches \(link)")
            }
        return [valid, routes]
    }
}
