import AppFlipCore
import AsyncHTTPClient
import FoundationEssentials
import Logging
import NIOCore
import NIOHTTP1

/// Why a token request produced no tokens. Never holds a token, code or secret.
public enum TokenEndpointFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// No HTTP answer at all.
    case transport(String)
    /// An HTTP error; `error` and `description` from the RFC 6749 §5.2 JSON body when it had one.
    case endpoint(status: Int, error: String?, description: String?)
    /// HTTP 200 without a usable token response.
    case malformedResponse(String)

    /// A sentence for the report; the endpoint's own `error` and `error_description` are quoted, shortened.
    public var description: String {
        switch self {
        case .transport(let reason):
            reason
        case .endpoint(let status, let error, let description):
            "HTTP \(status)" + (error.map { " error=\(String($0.prefix(64)))" } ?? " without an RFC 6749 error body")
                + (description.map { ": \(String($0.prefix(200)))" } ?? "")
        case .malformedResponse(let reason):
            reason
        }
    }
}
