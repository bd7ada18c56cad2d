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

    /// A JSON object with every secret member redacted, at any depth (a partner may nest its tokens), or the
    /// body's size and type.
    static func body(_ bytes: [UInt8], contentType: String?, secretsSent: [String]) -> String {
        guard case .object(let members)? = try? JSONValue(parsing: bytes) else {
            return bytes.isEmpty ? "(empty)" : "(\(bytes.count) bytes, \(contentType ?? "no Content-Type"))"
        }
        return shown(.object(members), name: nil, secretsSent: secretsSent).compactJSON
    }

    /// `value`, named `name`: a string under a secret name as its fingerprint, any other string without the
    /// secrets the request sent and at most 200 characters; an array's items under its own name.
    private static func shown(_ value: JSONValue, name: String?, secretsSent: [String]) -> JSONValue {
        switch value {
        case .string(let text) where name.map(SecretNames.isSecret(name:)) == true:
            .string(secret(text))
        case .string(let text):
            .string(String(text.redacting(secretsSent).prefix(200)))
        case .object(let members):
            .object(members.reduce(into: [:]) { $0[$1.key] = shown($1.value, name: $1.key, secretsSent: secretsSent) })
        case .array(let items):
            .array(items.map { shown($0, name: name, secretsSent: secretsSent) })
        case .null, .bool, .number:
            value
        }
    }
}
