/// One check's outcome in a report: why, in one line, and the evidence behind it. Neither ever holds a code,
/// token, secret or cookie: only a length and a fingerprint.
public struct AuditResult: Sendable, Hashable, Encodable {
    /// The check.
    public var check: CheckSpec
    /// How it ended.
    public var outcome: AuditOutcome
    /// One line: what was seen, or why the check was skipped.
    public var reason: String
    /// What was sent and what came back, one item a line, redacted.
    public var evidence: [String]
    /// The numbers of the run's exchanges (HTTP, and handoffs through appflipd) that showed this outcome, in
    /// order: the `#N` of the evidence, the HAR entries' `_appflipExchange`.
    public var exchanges: [Int] = []

    /// Records one check's outcome.
    public init(_ check: CheckSpec, _ outcome: AuditOutcome, _ reason: String, evidence: [String] = []) {
        self.check = check
        self.outcome = outcome
        self.reason = reason
        self.evidence = evidence
    }

    private enum CodingKeys: String, CodingKey {
        case id, target, title, rule, source, level, requires, outcome, reason, evidence, exchanges
    }

    /// The check's catalogue entry travels with the outcome, so that `--json` readers need no catalogue.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(check.id, forKey: .id)
        try container.encode(check.target, forKey: .target)
        try container.encode(check.title, forKey: .title)
        try container.encode(check.rule, forKey: .rule)
        try container.encode(check.source, forKey: .source)
        try container.encode(check.level, forKey: .level)
        try container.encode(check.requires, forKey: .requires)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(reason, forKey: .reason)
        try container.encode(evidence, forKey: .evidence)
        try container.encode(exchanges, forKey: .exchanges)
    }
}

/// How one check ended. Only `fail` makes the audit fail; a `warning` is a SHOULD that was not met; a need
/// the audit's own input could not establish is `couldNotRun` (the audit could not run fully), and the checks
/// that need it are skipped.
public enum AuditOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    case pass, fail, warning, skipped
    case couldNotRun = "could-not-run"
}
