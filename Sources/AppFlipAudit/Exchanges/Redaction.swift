import AppFlipCore

/// How a request or response is shown in a record or a report: every value whose name says it is a code,
/// token, secret or cookie (`SecretNames`) as its length and the first 8 hex digits of its SHA-256.
enum Redaction {
    static func secret(_ value: String) -> String {
        "(\(value.utf8.count) bytes, sha256:\(Fingerprint.of(value)))"
    }

    static func field(_ name: String, _ value: String) -> RecordedExchange.Field {
        RecordedExchange.Field(name: name, value: SecretNames.isSecret(name: name) ? secret(value) : value)
    }

    /// A header: `Authorization` keeps its scheme, `Cookie` and `Set-Cookie` show only length and fingerprint,
    /// a `Location` its parameters as `LocationText` shows them.
    static func header(_ name: String, _ value: String) -> RecordedExchange.Field {
        switch name.lowercased() {
        case "authorization", "proxy-authorization":
            let scheme = value.prefix { $0 != " " }
            return RecordedExchange.Field(name: name, value: "\(scheme) \(secret(String(value.dropFirst(scheme.count + 1))))")
        case "cookie", "set-cookie":
            return RecordedExchange.Field(name: name, value: secret(value))
        case "location":
            return RecordedExchange.Field(name: name, value: LocationText.shown(value))
        default:
            return field(name, value)
        }
    }

    /// A JSON object's members with the secret ones redacted, or the body's size and type.
    static func body(_ bytes: [UInt8], contentType: String?, secretsSent: [String]) -> String {
        guard case .object(let members)? = try? JSONValue(parsing: bytes) else {
            return bytes.isEmpty ? "(empty)" : "(\(bytes.count) bytes, \(contentType ?? "no Content-Type"))"
        }
        let shown: [String: JSONValue] = members.reduce(into: [:]) { shown, member in
            if SecretNames.isSecret(name: member.key), case .string(let value) = member.value {
                shown[member.key] = .string(secret(value))
            } else if case .string(let text) = member.value {
                shown[member.key] = .string(String(text.redacting(secretsSent).prefix(200)))
            } else {
                shown[member.key] = member.value
            }
        }
        return JSONValue.object(shown).compactJSON
    }
}
