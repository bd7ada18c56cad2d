/// One check of `appflip audit`, as data: the rule it holds a partner to (one sentence, and where it comes
/// from), how strong that rule is, and what the check needs before it can judge anything. The catalogue of
/// every check is `AuditCatalogue` in AppFlipAudit, one file per target; docs/audit.md's tables are held
/// equal to it by a test.
public struct CheckSpec: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The id the report and JUnit name the check by, `target-prefix.name`.
    public let id: String
    /// The part of the integration the check looks at.
    public let target: AuditTarget
    /// A few words for the report line.
    public let title: String
    /// The rule, in one sentence.
    public let rule: String
    /// Where the rule comes from.
    public let source: String
    /// The strongest requirement the check judges: a broken MUST fails, a broken SHOULD is a warning.
    public let level: CheckLevel
    /// What must be established before the check judges anything, in the order a skip names them: the first
    /// unmet need decides the check's skip, or, for a need the check itself establishes, its outcome.
    public let requires: [AuditNeed]
    /// The need this check establishes for the others, when it is a precondition: its verdict is the need's.
    public let establishes: AuditNeed?

    /// A check of `target` with its rule, level and needs.
    public init(
        id: String,
        target: AuditTarget,
        title: String,
        rule: String,
        source: String,
        level: CheckLevel,
        requires: [AuditNeed],
        establishes: AuditNeed? = nil
    ) {
        self.id = id
        self.target = target
        self.title = title
        self.rule = rule
        self.source = source
        self.level = level
        self.requires = requires
        self.establishes = establishes
    }

    /// The audit's check of a hosted-file rule: the rule's own id and texts, so that `aasa check`,
    /// `assetlinks check` and the audit say one thing under one id.
    public init(_ rule: HostedRule, target: AuditTarget, level: CheckLevel, requires: [AuditNeed]) {
        self.init(id: rule.id, target: target, title: rule.title, rule: rule.sentence, source: rule.source, level: level, requires: requires)
    }

    /// Checks are one per id.
    public static func == (lhs: CheckSpec, rhs: CheckSpec) -> Bool { lhs.id == rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The id.
    public var description: String { id }
}

/// How strong a rule is, in the words of RFC 2119 that its source uses.
public enum CheckLevel: String, Sendable, Hashable, Codable, CaseIterable {
    /// MUST, REQUIRED, SHALL, or a statement that the integration does not work otherwise: a failure.
    case must = "MUST"
    /// SHOULD, RECOMMENDED: a warning, never a failure.
    case should = "SHOULD"
}
