/// The Google app's side: checks the result URL a partner app opened against what the flip link sent.
///
/// It reports every violation at once, so a partner sees all that is wrong in one run.
public struct FlipResultChecker: Sendable, Hashable {
    /// The `redirect_uri` the flip link carried.
    public let redirectURI: String
    /// The `state` the flip link carried.
    public let state: String

    public init(redirectURI: String, state: String) {
        self.redirectURI = redirectURI
        self.state = state
    }

    public func check(_ resultURL: String) -> FlipResultVerdict {
        let url: RawURL
        do {
            url = try RawURL(resultURL)
        } catch {
            return FlipResultVerdict(outcome: nil, violations: [.malformedURL(error)], deviations: [])
        }
        var violations: [FlipResultViolation] = []
        var deviations: [FlipResultDeviation] = []

        let base = resultURL.utf8.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        if !base.elementsEqual(redirectURI.utf8) { violations.append(.notTheRedirectURI) }
        if url.fragment != nil { violations.append(.fragment) }
        guard let query = url.query else {
            violations.append(.noQuery)
            return FlipResultVerdict(outcome: nil, violations: violations, deviations: deviations)
        }

        var fields: [Name: [QueryField]] = [:]
        for field in QueryField.fields(of: query) {
            guard let decoded = field.name else {
                violations.append(.notUTF8(parameter: nil))
                continue
            }
            guard let name = Name(rawValue: decoded) else {
                violations.append(.unexpectedParameter(decoded))
                continue
            }
            fields[name, default: []].append(field)
        }
        for name in Name.allCases {
            if let count = fields[name]?.count, count > 1 { violations.append(.duplicated(name.rawValue, count: count)) }
        }
        /// The single occurrence of `name`: `nil` when absent or repeated (already reported).
        func single(_ name: Name) -> QueryField? {
            guard let found = fields[name], found.count == 1 else { return nil }
            return found[0]
        }
        func value(_ field: QueryField, _ name: Name) -> String? {
            if field.value == nil { violations.append(.notUTF8(parameter: name.rawValue)) }
            return field.value
        }

        let hasCode = fields[.code] != nil
        let hasError = fields[.error] != nil
        if hasCode && hasError { violations.append(.bothCodeAndError) }
        if !hasCode && !hasError { violations.append(.neitherCodeNorError) }

        var outcome: FlipResultVerdict.Outcome?
        if let field = single(.code), let code = value(field, .code) {
            if code.isEmpty { violations.append(.emptyCode) } else if !hasError { outcome = .code(code) }
        }
        if hasCode, fields[.errorDescription] != nil { violations.append(.errorDescriptionWithCode) }
        if let field = single(.error), let error = value(field, .error) {
            if let known = FlipErrorCode(rawValue: error) {
                var description: String?
                if let descriptionField = single(.errorDescription), let text = value(descriptionField, .errorDescription) {
                    description = text
                    if !text.utf8.allSatisfy(Self.isErrorDescriptionCharacter) { deviations.append(.errorDescriptionCharacters) }
                }
                if !hasCode { outcome = .error(known, description: description) }
            } else {
                violations.append(.unknownError(error))
            }
        }

        switch (fields[.state], hasCode) {
        case (nil, true): violations.append(.stateMissing)
        case (nil, false): if hasError { deviations.append(.stateMissingWithError) }
        case (let found?, _):
            if found.count == 1, let received = value(found[0], .state), !received.isIdentical(to: state) {
                violations.append(.stateMismatch(literalPlus: found[0].rawValue.contains("+")))
            }
        }
        return FlipResultVerdict(outcome: outcome, violations: violations, deviations: deviations)
    }

    private enum Name: String, CaseIterable {
        case code, state, error
        case errorDescription = "error_description"
    }

    /// RFC 6749 §4.1.2.1: `error_description` holds only %x20-21 / %x23-5B / %x5D-7E.
    private static func isErrorDescriptionCharacter(_ byte: UInt8) -> Bool {
        (0x20...0x21).contains(byte) || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
    }
}

/// The checker's answer: what the result says, and everything wrong with it.
public struct FlipResultVerdict: Sendable, Hashable, CustomStringConvertible {
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        case code(String)
        case error(FlipErrorCode, description: String?)

        /// Safe to log: the code is replaced by its length.
        public var description: String {
            switch self {
            case .code(let code): "code (\(code.utf8.count) bytes, redacted)"
            case .error(let error, _): "error \(error.rawValue)"
            }
        }
    }

    /// The code or error, when the result carries exactly one of them, well formed; set even when the
    /// state is wrong, so that callers can say what was returned.
    public let outcome: Outcome?
    /// Rules broken: the result must not be trusted.
    public let violations: [FlipResultViolation]
    /// Departures from RFC 6749 that the seed's own sample makes, reported rather than silently accepted.
    public let deviations: [FlipResultDeviation]

    /// No violations and an outcome. Deviations do not fail a result.
    public var isValid: Bool { violations.isEmpty && outcome != nil }

    public var description: String {
        var lines = [isValid ? "valid result: \(outcome.map(String.init(describing:)) ?? "")" : "invalid result"]
        lines += violations.map { "violation: \($0)" }
        lines += deviations.map { "deviation: \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// A rule a result URL breaks.
public enum FlipResultViolation: Sendable, Hashable, CustomStringConvertible {
    case malformedURL(URLSyntaxError)
    /// The text before `?` is not byte-for-byte the redirect URI that was sent.
    case notTheRedirectURI
    case fragment
    case noQuery
    /// A name (`parameter` is `nil`) or a value that is not valid UTF-8 once decoded.
    case notUTF8(parameter: String?)
    /// A parameter other than `code`, `state`, `error` and `error_description`.
    case unexpectedParameter(String)
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

    public var description: String {
        switch self {
        case .malformedURL(let error): "the result is not an absolute URL: \(error)"
        case .notTheRedirectURI: "the result does not start with exactly the redirect_uri that was sent"
        case .fragment: "the result has a fragment"
        case .noQuery: "the result has no query"
        case .notUTF8(let parameter?): "\(parameter) is not valid UTF-8 once decoded"
        case .notUTF8(nil): "a parameter name is not valid UTF-8 once decoded"
        case .unexpectedParameter(let name): "unexpected parameter \(String(reflecting: name))"
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

    public var description: String {
        switch self {
        case .stateMissingWithError: "state is missing with the error (RFC 6749 section 4.1.2.1 requires it)"
        case .errorDescriptionCharacters:
            "error_description has characters outside RFC 6749 section 4.1.2.1's set (printable ASCII except '\"' and '\\')"
        }
    }
}
