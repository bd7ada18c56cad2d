import AppFlipCore

/// One answer of a token endpoint, kept as the rules need it: the status, the two headers they name and
/// the JSON members. Its description shows no token: only lengths and fingerprints.
struct TokenAnswer: Sendable, CustomStringConvertible {
    var status: Int
    var contentType: String?
    var cacheControl: String?
    /// The body as a JSON object; nil when it is not one.
    var members: [String: JSONValue]?

    init(status: Int, contentType: String?, cacheControl: String?, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.cacheControl = cacheControl
        if case .object(let members)? = try? JSONValue(parsing: body) { self.members = members } else { members = nil }
    }

    func string(_ name: String) -> String? {
        if case .string(let value)? = members?[name] { return value }
        return nil
    }

    var accessToken: String? { string("access_token").flatMap { $0.isEmpty ? nil : $0 } }
    var refreshToken: String? { string("refresh_token").flatMap { $0.isEmpty ? nil : $0 } }
    var error: String? { string("error") }

    /// HTTP 200 with a non-empty access token.
    var issuedTokens: Bool { status == 200 && accessToken != nil }

    /// Whether this is HTTP 400 with `error` = `expected`.
    func isError(_ expected: String, statuses: Set<Int> = [400]) -> Bool {
        statuses.contains(status) && error == expected
    }

    var isJSON: Bool {
        guard let contentType else { return false }
        let mediaType = String(contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
        return (mediaType == "application/json" || mediaType.hasSuffix("+json")) && members != nil
    }

    var description: String {
        var parts = ["HTTP \(status)"]
        if let error { parts.append("error=\(String(error.prefix(64)))") }
        if let accessToken { parts.append("access_token (\(accessToken.utf8.count) bytes, sha256:\(Fingerprint.of(accessToken)))") }
        if let refreshToken { parts.append("refresh_token (\(refreshToken.utf8.count) bytes, sha256:\(Fingerprint.of(refreshToken)))") }
        if members == nil { parts.append("body not a JSON object (Content-Type \(contentType ?? "none"))") }
        return parts.joined(separator: " ")
    }
}
