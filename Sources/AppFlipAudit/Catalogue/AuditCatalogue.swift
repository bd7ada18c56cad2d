public import AppFlipCore

/// Every check `appflip audit` runs, as data, in report order: one file per target declares its checks
/// (`CheckSpec`s) and lists them. docs/audit.md's tables are held equal to this catalogue by a test
/// (`AuditDocumentTests`), and the report, the text output and JUnit read it.
public enum AuditCatalogue {
    /// Every check, grouped by target in ``AuditTarget`` order.
    public static let all: [CheckSpec] =
        partnerApp + authorizationEndpoint + tokenEndpoint + associationFile + androidAssociationFile + androidApp
        + androidArtifact + iosArtifact

    /// The check with `id`, if the catalogue has one.
    public static func spec(id: String) -> CheckSpec? {
        byID[id]
    }

    /// The checks of `target`, in report order.
    public static func checks(of target: AuditTarget) -> [CheckSpec] {
        all.filter { $0.target == target }
    }

    private static let byID: [String: CheckSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}

extension AuditCatalogue {
    /// The Markdown table of `target`'s checks that docs/audit.md holds between `<!-- catalogue: TARGET -->`
    /// and `<!-- /catalogue -->`: id, level, title, rule, source and needs (the need a precondition
    /// establishes after an arrow).
    public static func markdownTable(of target: AuditTarget) -> String {
        var lines = ["| check | level | title | rule | source | needs |", "|---|---|---|---|---|---|"]
        for check in checks(of: target) {
            var needs = check.requires.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            if let establishes = check.establishes { needs += " → `\(establishes.rawValue)`" }
            lines.append("| `\(check.id)` | \(check.level.rawValue) | \(check.title) | \(check.rule) | \(check.source) | \(needs) |")
        }
        return lines.joined(separator: "\n")
    }
}

extension AuditCatalogue {
    /// The Markdown list of every need, for docs/audit.md (between `<!-- needs -->` and `<!-- /needs -->`).
    public static func markdownNeeds() -> String {
        AuditNeed.allCases.map { "- `\($0.rawValue)`: \($0.summary)" }.joined(separator: "\n")
    }

    /// The Markdown list of every cause of could-not-run, for docs/audit.md (between `<!-- causes -->` and
    /// `<!-- /causes -->`).
    public static func markdownCauses() -> String {
        CouldNotRunCause.allCases.map { "- `\($0.rawValue)`: \($0.summary)" }.joined(separator: "\n")
    }
}
