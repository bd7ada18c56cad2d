/// A departure from RFC 6749 that does not fail the result.
public enum FlipResultDeviation: Sendable, Hashable, CustomStringConvertible {
    /// RFC 6749 §4.1.2.1 requires `state` with an error; the seed's sample omits it.
    case stateMissingWithError
    /// `error_description` holds a character outside RFC 6749 §4.1.2.1's %x20-21 / %x23-5B / %x5D-7E.
    case errorDescriptionCharacters

    /// A sentence for the report.
    public var description: String {
        switch self {
        case .stateMissingWithError: "state is missing with the error (RFC 6749 section 4.1.2.1 requires it)"
        case .errorDescriptionCharacters:
            "error_description has characters outside RFC 6749 section 4.1.2.1's set (printable ASCII except '\"' and '\\')"
        }
    }
}
