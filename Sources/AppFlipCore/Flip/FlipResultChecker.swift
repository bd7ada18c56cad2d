/// The Google app's side: checks the result URL a partner app opened against what the flip link sent.
///
/// It reports every violation at once, so a partner sees all that is wrong in one run.
public struct FlipResultChecker: Sendable, Hashable {
    /// The `redirect_uri` the flip link carried.
    public let redirectURI: String
    /// The `state` the flip link carried.
    public let state: String

    /// Creates a checker for a result that must come back to `redirectURI` with this `state`.
    public init(redirectURI: String, state: String) {
        self.redirectURI = redirectURI
        self.state = state
    }

    /// Checks the URL the partner app opened: target, `state`, and exactly one of `code` or `error`.
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
            // RFC 6749 §4.1.2: the client MUST ignore unrecognized response parameters.
            guard let name = Name(rawValue: decoded) else { continue }
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
