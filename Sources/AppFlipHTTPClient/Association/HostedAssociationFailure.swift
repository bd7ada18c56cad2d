public import AppFlipCore

/// Why a hosted file cannot be used: the rule it broke, what was seen, and where.
public struct HostedAssociationFailure: Error, Sendable, CustomStringConvertible {
    /// The rule that failed; the rules before it in `HostingRule.fetchOrder` held.
    public let rule: HostingRule
    /// The URL that was fetched.
    public let url: String
    /// What was seen, in users' words: a status, a `Location`, a content type, a byte count, an error.
    public let evidence: String
    /// The loader's diagnostics when the body was refused (`file.valid`); empty otherwise.
    public let diagnostics: [AASADiagnostic]

    /// Creates a failure of `rule` at `url`.
    public init(_ rule: HostingRule, url: String, _ evidence: String, diagnostics: [AASADiagnostic] = []) {
        self.rule = rule
        self.url = url
        self.evidence = evidence
        self.diagnostics = diagnostics
    }

    /// True when the host could not be reached at all: the check could not run (exit status 1), rather than
    /// a rule failing (exit status 2).
    public var isUnreachable: Bool { rule == .reachable }

    /// `RULE: evidence (url)`.
    public var description: String { "\(rule.rawValue): \(evidence) (\(url))" }
}
