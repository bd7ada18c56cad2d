import AppFlipCore
import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL

/// Why an HTTP exchange never produced an answer, in words: all of these are transient (`cancelled`).
/// `appflip audit` says why a target was unreachable in the same words.
public enum TransportFailure {
    static func classify(_ error: any Error, endpoint: String) -> AuthorizationFailure {
        AuthorizationFailure(.cancelled, reason: describe(error, endpoint: endpoint))
    }

    /// `connection to URL refused: nothing listens there`, `connecting to URL timed out`, …
    public static func describe(_ error: any Error, endpoint: String) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "connecting to \(endpoint) timed out"
            case .readTimeout, .deadlineExceeded: return "\(endpoint) did not answer in time"
            case .tlsHandshakeTimeout: return "the TLS handshake with \(endpoint) timed out"
            case .remoteConnectionClosed: return "\(endpoint) closed the connection without answering"
            case .invalidURL, .emptyHost, .emptyScheme:
                return "the endpoint URL \(endpoint) is invalid: \(error)"
            default: return "HTTP to \(endpoint) failed: \(error)"
            }
        }
        if error is NIOTooManyBytesError {
            return "\(endpoint) sent a body over the size limit"
        }
        if error is NIOSSLError || error is BoringSSLError {
            return "TLS with \(endpoint) failed (is it really https?): \(error)"
        }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED {
            return "connection to \(endpoint) refused: nothing listens there"
        }
        if let error = error as? NIOConnectionError {
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return refused
                ? "connection to \(endpoint) refused: nothing listens there"
                : "cannot connect to \(endpoint): \(error)"
        }
        return "HTTP to \(endpoint) failed: \(error)"
    }
}
