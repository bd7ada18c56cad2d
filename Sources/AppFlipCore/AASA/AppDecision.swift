/// An app's decision about a URL, and the rule that made it, so a user can be shown why.
public struct AppDecision: Sendable, Hashable, CustomStringConvertible {
    /// Whether the app takes the URL (`match`), refuses it (`exclude`), or no rule of it applies.
    public let outcome: MatchOutcome
    /// The index of the deciding `details` entry (for the legacy dictionary form, its index among the keys
    /// sorted); `nil` when nothing decided.
    public let detailsIndex: Int?
    /// The index of the deciding entry in that entry's `components` (or legacy `paths`); `nil` when nothing
    /// decided.
    public let componentIndex: Int?
    /// The deciding rule as written: a component as compact JSON with sorted keys (`{"/":"/buy/*"}`), or a
    /// legacy path string (`NOT /wwdc/internal/*`). `nil` when nothing decided.
    public let rule: String?
    /// An RFC 6901 pointer to the deciding rule in the document, e.g. `/applinks/details/0/components/1`.
    public let pointer: String?

    /// Creates a decision; the indexes, rule and pointer are `nil` together when nothing decided.
    public init(outcome: MatchOutcome, detailsIndex: Int?, componentIndex: Int?, rule: String?, pointer: String?) {
        self.outcome = outcome
        self.detailsIndex = detailsIndex
        self.componentIndex = componentIndex
        self.rule = rule
        self.pointer = pointer
    }

    /// No rule of the app decided.
    public static let noMatch = AppDecision(outcome: .noMatch, detailsIndex: nil, componentIndex: nil, rule: nil, pointer: nil)

    /// The outcome, then the deciding rule and its pointer when there is one.
    public var description: String {
        guard let rule, let pointer else { return outcome.rawValue }
        return "\(outcome.rawValue) by \(pointer): \(rule)"
    }
}
