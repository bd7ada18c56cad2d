import AppFlipCore
import AsyncHTTPClient
package import NIOHTTP1

/// How the partner app proves to its authorization endpoint that a user is signed in: whatever the user's
/// real endpoint expects in place of a browser session. Its description never shows the value.
public enum SessionCredential: Sendable, Hashable, CustomStringConvertible {
    /// A raw header, e.g. `X-Session: …`.
    case header(name: String, value: String)
    /// A `Cookie` header value, e.g. `sessionid=…`.
    case cookie(String)
    /// `Authorization: Bearer …`.
    case bearer(String)

    package func apply(to headers: inout HTTPHeaders) {
        switch self {
        case .header(let name, let value): headers.replaceOrAdd(name: name, value: value)
        case .cookie(let cookie): headers.replaceOrAdd(name: "Cookie", value: cookie)
        case .bearer(let token): headers.replaceOrAdd(name: "Authorization", value: "Bearer \(token)")
        }
    }

    /// The secret parts, for redaction.
    package var secrets: [String] {
        switch self {
        case .header(_, let value): [value]
        case .cookie(let cookie): [cookie] + cookie.split(separator: ";").compactMap { $0.split(separator: "=", maxSplits: 1).last.map(String.init) }
        case .bearer(let token): [token]
        }
    }

    /// Redacted: the kind of credential and a fingerprint, never the value.
    public var description: String {
        switch self {
        case .header(let name, let value): "header \(name) (sha256:\(Fingerprint.of(value)))"
        case .cookie(let cookie): "cookie (sha256:\(Fingerprint.of(cookie)))"
        case .bearer(let token): "bearer token (sha256:\(Fingerprint.of(token)))"
        }
    }
}
