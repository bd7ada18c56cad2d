import AppFlipCore

/// One answer of a token (or revocation) endpoint, kept as the rules need it: the status, the headers they
/// name, the JSON members and the client authentication it answered. Its description shows no token: only
/// lengths and fingerprints, and the server's `error_description` with what was sent redacted.
struct TokenAnswer: Sendable, CustomStringConvertible {
    /// The exchange that brought it (``RecordedExchange/id``).
    var exchange: Int
    var status: Int
    var contentType: String?
    var cacheControl: String?
    var wwwAuthenticate: String?
    /// How the request that got this answer authenticated the client, in words.
    var authentication: String
    /// The body as a JSON object; nil when it is not one.
    var members: [String: JSONValue]?
    /// `error_description`, with every secret sent replaced by its fingerprint.
    var errorDescription: String?

    init(
        exchange: Int,
        status: Int,
        contentType: String?,
        cacheControl: String?,
        wwwAuthenticate: String?,
        authentication: String,
        body: [UInt8],
        secretsSent: [String]
    ) {
        self.exchange = exchange
        self.status = status
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.wwwAuthenticate = wwwAuthenticate
        self.authentication = authentication
        if case .object(let members)? = try? JSONValue(parsing: body) { self.members = members } else { members = nil }
        if case .string(let text)? = members?["error_description"] {
            errorDescription = String(text.redacting(secretsSent).prefix(200))
        }
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

    /// A short account for a reason line: the status, `error` and `error_description`.
    var summary: String {
        if issuedTokens { return "tokens (HTTP \(status))" }
        if let error {
            return "HTTP \(status) error=\(String(error.prefix(64)))" + (errorDescription.map { " (\(String(reflecting: $0)))" } ?? "")
        }
        return "HTTP \(status) without an error member" + (members == nil ? " (\(contentType ?? "no Content-Type"))" : "")
    }

    var description: String {
        var parts = ["#\(exchange) HTTP \(status)"]
        if let error { parts.append("error=\(String(error.prefix(64)))") }
        if let errorDescription { parts.append("error_description=\(String(reflecting: errorDescription))") }
        if let accessToken { parts.append("access_token (\(accessToken.utf8.count) bytes, sha256:\(Fingerprint.of(accessToken)))") }
        if let refreshToken { parts.append("refresh_token (\(refreshToken.utf8.count) bytes, sha256:\(Fingerprint.of(refreshToken)))") }
        if members == nil { parts.append("body not a JSON object (Content-Type \(contentType ?? "none"))") }
        if let wwwAuthenticate { parts.append("WWW-Authenticate: \(String(wwwAuthenticate.prefix(120)))") }
        return parts.joined(separator: " ") + " [client auth: \(authentication)]"
    }
}
