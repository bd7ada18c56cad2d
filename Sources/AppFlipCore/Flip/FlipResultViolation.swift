/// A rule a result URL breaks.
public enum FlipResultViolation: Sendable, Hashable, CustomStringConvertible {
    case malformedURL(URLSyntaxError)
    /// The text before `?` is not byte-for-byte the redirect URI that was sent.
    case notTheRedirectURI
    case fragment
    case noQuery
    /// A name (`parameter` is `nil`) or a value that is not valid UTF-8 once decoded.
    case notUTF8(parameter: String?)
    case duplicated(String, count: Int)
    case neitherCodeNorError
    case bothCodeAndError
    case emptyCode
    case errorDescriptionWithCode
    /// `error` is not `cancelled`, `unrecoverable` or `invalid_request`.
    case unknownError(String)
    /// A code came back without the state.
    case stateMissing
    /// The state is not byte-for-byte the one sent. `literalPlus` flags a raw `+`, which form decoders read
    /// as a space: the mark of Foundation's `URLComponents.queryItems`, which leaves `+` unencoded.
    case stateMismatch(literalPlus: Bool)

    /// A sentence for the report; it never quotes a code.
    public var description: String {
        switch self {
        case .malformedURL(let error): "the result is not an absolute URL: \(error)"
        case .notTheRedirectURI: "the result does not start with exactly the redirect_uri that was sent"
        case .fragment: "the result has a fragment"
        case .noQuery: "the result has no query"
        case .notUTF8(let parameter?): "\(parameter) is not valid UTF-8 once decoded"
        case .notUTF8(nil): "a parameter name is not valid UTF-8 once decoded"
        case .duplicated(let name, let count): "\(name) occurs \(count) times"
        case .neitherCodeNorError: "neither code nor error is present"
        case .bothCodeAndError: "both code and error are present"
        case .emptyCode: "code is empty"
        case .errorDescriptionWithCode: "error_description is present with a code"
        case .unknownError(let error):
            "error \(String(reflecting: error)) is not one of cancelled, unrecoverable, invalid_request"
        case .stateMissing: "state is missing; it must come back with the code"
        case .stateMismatch(let literalPlus):
            "state is not byte-for-byte the one sent"
                + (literalPlus ? " (it holds a literal '+', which decodes as a space: encode '+' as %2B)" : "")
        }
    }
}

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
