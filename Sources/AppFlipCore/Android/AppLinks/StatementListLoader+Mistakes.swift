/// The common mistakes, each named as what it is, and the messages of the rule-level problems.
extension StatementListLoader {

    mutating func reportAASAKeys(_ fields: [String: JSONValue], at pointer: String) {
        for key in fields.keys.sorted() where Self.aasaKeys.contains(key) {
            report(
                .aasaKey,
                at: JSONPointer.appending(key, to: pointer),
                "\"\(key)\" is an apple-app-site-association key; Digital Asset Links ignores it (Android App Links take paths from the app's intent filters)"
            )
        }
    }

    mutating func reportMisCasedKeys(_ fields: [String: JSONValue], known: [String], at pointer: String) {
        for key in fields.keys.sorted() where !known.contains(key) {
            if let meant = known.first(where: { $0 == key.lowercased() }), fields[meant] == nil {
                report(
                    .misCasedKey,
                    at: JSONPointer.appending(key, to: pointer),
                    "\"\(key)\" should be \"\(meant)\": keys are case-sensitive, so the verifiers do not see this one"
                )
            }
        }
    }

    func hasMisCasedKey(_ fields: [String: JSONValue], for key: String) -> Bool {
        fields.keys.contains { $0 != key && $0.lowercased() == key }
    }

    /// The first value StatementService's `JsonParser` throws on: a number or null anywhere, a boolean in an array.
    static func firstValueStatementServiceRefuses(_ value: JSONValue, at pointer: String, inArray: Bool = false) -> Located<JSONValue>? {
        switch value {
        case .number, .null: return Located(value: value, pointer: pointer)
        case .bool: return inArray ? Located(value: value, pointer: pointer) : nil
        case .string: return nil
        case .array(let values):
            for (index, element) in values.enumerated() {
                if let found = firstValueStatementServiceRefuses(element, at: JSONPointer.appending(index, to: pointer), inArray: true) {
                    return found
                }
            }
            return nil
        case .object(let members):
            for key in members.keys.sorted() {
                if let found = firstValueStatementServiceRefuses(members[key]!, at: JSONPointer.appending(key, to: pointer)) { return found }
            }
            return nil
        }
    }

    static func describe(_ problem: RelationString.Problem, _ relation: String) -> String {
        switch problem {
        case .noSeparator: "invalid relation string \"\(relation)\": it must be kind/detail, with exactly one /"
        case .invalidKind: "invalid 'kind' field in relation string \"\(relation)\": it must match [a-z0-9_.]+"
        case .invalidDetail: "invalid 'detail' field in relation string \"\(relation)\": it must match [a-z0-9_.]+"
        }
    }

    static func describe(_ problem: CertificateFingerprint.Problem) -> (AssetLinksDiagnostic.Code, String) {
        switch problem {
        case .empty: (.malformedFingerprint, "the fingerprint is empty")
        case .lowercase:
            (
                .lowercaseFingerprint,
                "the fingerprint is lower-case hex; it must be upper case, as keytool prints it, or it never matches the device's"
            )
        case .sha1Length: (.sha1Fingerprint, "the fingerprint is 20 bytes: this is the SHA-1 fingerprint; App Links need the SHA-256 one (32 bytes)")
        case .trailingCharacter(let character): (.fingerprintTrailingCharacter, "the fingerprint has a trailing \"\(character)\" after its 32 bytes")
        case .label: (.fingerprintLabel, "the fingerprint starts with keytool's \"SHA256:\" label; only the hex pairs belong here")
        case .wrongLength(let count): (.fingerprintWrongLength, "the fingerprint is \(count) bytes; a SHA-256 fingerprint is 32")
        case .noColons: (.malformedFingerprint, "the fingerprint has no colons; it must be 32 hex pairs separated by colons")
        case .placeholder:
            (.placeholderFingerprint, "the fingerprint is not hex: a placeholder or a command line was left in place of the real value")
        }
    }

    static func describe(_ problem: WebSite.Problem, _ site: String) -> (AssetLinksDiagnostic.Code, String) {
        switch problem {
        case .notURL: (.invalidSite, "invalid site \"\(site)\": it is not a URL with a scheme and a host")
        case .notHTTP: (.siteNotHTTP, "site \"\(site)\" is not http or https")
        case .userInfo: (.siteWithUserInfo, "site \"\(site)\" contains login information (user info)")
        case .path:
            (
                .siteWithPath,
                "site \"\(site)\" cannot contain a path, not even \"/\" (Google's verifier drops the statement; StatementService accepts only \"/\")"
            )
        case .queryOrFragment: (.siteWithQueryOrFragment, "site \"\(site)\" cannot contain query parameters or fragment identifiers")
        case .invalidPort: (.invalidSite, "invalid site \"\(site)\": the port is not a number from 1 to 65535")
        }
    }
}
