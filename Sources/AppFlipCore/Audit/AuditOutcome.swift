/// How one check ended. Only `fail` makes the audit fail; a `warning` is a SHOULD that was not met.
public enum AuditOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    case pass, fail, warning, skipped
}
