import AppFlipCore

/// One thing a probe or a judge found about one check: that its rule held, that it broke (at the level of
/// the part of the rule it broke), or only evidence. The verdict builder turns a check's findings into its
/// outcome; no probe writes an outcome itself.
struct Finding: Sendable {
    enum Kind: Sendable, Equatable {
        /// The rule held for what was judged.
        case held
        /// The rule broke: a MUST part fails the check, a SHOULD part warns.
        case broke(CheckLevel)
        /// Evidence only: what was sent and seen, whatever the verdict.
        case note
    }

    var kind: Kind
    /// One line: what was seen. The outcome's reason is made of these.
    var reason: String
    /// What was sent and what came back, redacted, one item a line.
    var evidence: [String]

    static func held(_ reason: String, evidence: [String] = []) -> Finding { Finding(kind: .held, reason: reason, evidence: evidence) }
    static func fail(_ reason: String, evidence: [String] = []) -> Finding { Finding(kind: .broke(.must), reason: reason, evidence: evidence) }
    static func warn(_ reason: String, evidence: [String] = []) -> Finding { Finding(kind: .broke(.should), reason: reason, evidence: evidence) }
    static func note(_ evidence: [String]) -> Finding { Finding(kind: .note, reason: "", evidence: evidence) }
}
