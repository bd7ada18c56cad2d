/// One check of a hosted file, as `appflip aasa check` prints it and JUnit records it.
public struct HostedAssociationCheck: Sendable, Hashable {
    /// Whether the check held, broke, or could not be made because an earlier one broke.
    public enum Status: String, Sendable, Hashable {
        /// The rule held.
        case passed
        /// The rule broke; `evidence` says what was seen.
        case failed
        /// Not checked: an earlier hosting rule broke, so there was nothing to check.
        case skipped
    }

    /// The rule's stable id: a `HostingRule` (`hosting.https`, `file.valid`), `file.app-id`, `url.decision` or
    /// `drift`.
    public let rule: String
    /// The rule's id, with the URL for `url.decision`: unique within a report.
    public let name: String
    /// What the rule asks, in one line.
    public let title: String
    /// How it went.
    public let status: Status
    /// What was seen.
    public let evidence: String
    /// Where the rule is written down.
    public let source: String

    /// Creates a check result.
    public init(rule: String, name: String? = nil, title: String, status: Status, evidence: String, source: String) {
        self.rule = rule
        self.name = name ?? rule
        self.title = title
        self.status = status
        self.evidence = evidence
        self.source = source
    }
}
