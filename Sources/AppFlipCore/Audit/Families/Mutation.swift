/// One value that a partner must tell apart from the value it compares against, and how it differs: the
/// audit sends it where the exact value belongs, and the rule that forbids the family says what must
/// become of it (refused, never redirected to, never given a code). Generated, never listed by hand, so
/// that a rule is probed as the whole family it forbids (docs/audit.md, "The families").
public struct Mutation: Sendable, Hashable, CustomStringConvertible {
    /// The kind of difference.
    public var family: MutationFamily
    /// What differs, in a few words, for a report: "the host in upper case".
    public var label: String
    /// The value sent; nil: the parameter is left out.
    public var value: String?

    /// A value of `family`, described by `label`.
    public init(_ family: MutationFamily, _ label: String, _ value: String?) {
        self.family = family
        self.label = label
        self.value = value
    }

    /// The label, and the value as sent when it is short: a report names the exact mutation that got
    /// through. Callers redact mutations of a secret themselves.
    public var description: String {
        guard let value else { return label }
        let shown = value.utf8.count > 80 ? String(value.prefix(60)) + "… (\(value.utf8.count) bytes)" : value
        return "\(label) \(String(reflecting: shown))"
    }
}

/// The grammar-level kinds of mutation; docs/audit.md lists which of them each check draws from.
public enum MutationFamily: String, Sendable, Hashable, CaseIterable {
    /// A component, or the whole value, in another letter case.
    case letterCase = "case"
    /// A character percent-encoded once, where the exact value holds it literally.
    case percentEncoding = "percent-encoding"
    /// A character percent-encoded twice.
    case doublePercentEncoding = "double-percent-encoding"
    /// A character in another Unicode normalisation form (NFC, NFD, NFKC, NFKD), a compatibility or case
    /// lookalike, or a non-ASCII homoglyph.
    case unicode
    /// The value cut short from its end, or from its start.
    case prefix
    /// The value with something appended.
    case suffix
    /// A neighbour: a host under the same parent domain, a package under the same parent package, another
    /// path beside the exact one, a foreign host that ends or starts with the exact one.
    case sibling
    /// Query or fragment parameters added, or a parameter removed, repeated or reordered in a request.
    case parameters
    /// A port written where the exact value has none.
    case port
    /// A trailing character: `/`, `?`, `#`, `.`, a space, a NUL.
    case trailing
    /// The value cut to a part of itself, or left empty.
    case truncation
    /// A length at or past a limit implementations commonly have.
    case length
    /// Characters the value's grammar reserves, or that a lenient decoder turns into others.
    case reserved
}
