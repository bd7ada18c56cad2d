import AppFlipCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Why an HTTP exchange produced no usable answer, in words that name the endpoint and, when a bound of
/// `OutboundBounds` was reached, the bound. `appflip audit` reports it as "could not run", the partner handler
/// as `cancelled`, `appflip flip` as a transport failure: a misbehaving server is never a hang, a crash or a
/// rule verdict.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for callers that treat some failures apart (the hosted file's rules).
    public enum Kind: Sendable, Hashable {
        /// Nothing listens at the address.
        case refused
        /// The TCP connection did not come up within the connect timeout.
        case connectTimeout
        /// Connected, but the TLS handshake did not finish within the connect timeout.
        case tlsHandshakeTimeout
        /// The TLS handshake failed (a plain-HTTP port, a bad certificate).
        case tls
        /// No status line and headers before the deadline.
        case noAnswer
        /// Headers, then no body byte before the deadline.
        case stalledBody
        /// Headers and part of the body, not all of it before the deadline.
        case slowBody
        /// A body over the cap, declared (`Content-Length`) or sent.
        case bodyTooLarge
        /// Headers over NIO's 80 KiB.
        case headersTooLarge
        /// Bytes that are not an HTTP/1.1 answer.
        case notHTTP
        /// The server closed or reset the connection before its answer was complete.
        case closed
        /// The URL cannot be requested.
        case invalidURL
        /// The caller cancelled the request (a whole-run timeout, a shutdown).
        case cancelled
        /// Anything else.
        case other
    }

    /// What went wrong.
    public let kind: Kind
    /// One sentence naming the endpoint, e.g. `the token endpoint URL sent more than 64 KiB without finishing its body`.
    public let description: String

    /// A failure of `kind`, in `description`'s words.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// The partner handler's result for it: every transport failure is transient (`cancelled`).
    var authorizationFailure: AuthorizationFailure { AuthorizationFailure(.cancelled, reason: description) }

    /// Where the exchange was when `error` ended it.
    enum Phase {
        case head
        case body(received: Int)
    }

    /// `error`, thrown by AsyncHTTPClient or NIO at `phase`, `elapsed` after the exchange began, in words.
    /// - Parameter secure: an https URL, whose connect timeout covers the TLS handshake too.
    init(_ error: any Error, endpoint: String, secure: Bool = false, phase: Phase, bounds: OutboundBounds, elapsed: Duration) {
        let closedWhile: String
        switch phase {
        case .head: closedWhile = "before answering"
        case .body(let received): closedWhile = "in the middle of its body, after \(received) bytes"
        }
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout where secure:
                // AsyncHTTPClient times the request out at the same instant as the handshake, and says only
                // `connectTimeout`: which of the two never finished is not known.
                self.init(.connectTimeout, "\(endpoint) did not complete the TCP connection and TLS handshake in \(Self.seconds(elapsed))")
            case .connectTimeout:
                self.init(.connectTimeout, "connecting to \(endpoint) timed out after \(Self.seconds(elapsed))")
            case .tlsHandshakeTimeout:
                self.init(.tlsHandshakeTimeout, "\(endpoint) did not complete the TLS handshake in \(Self.seconds(elapsed))")
            case .deadlineExceeded, .readTimeout:
                self.init(.noAnswer, "\(endpoint) did not answer within \(Self.seconds(bounds.deadline))")
            case .remoteConnectionClosed:
                self.init(.closed, "\(endpoint) closed the connection \(closedWhile)")
            case .cancelled:
                self.init(.cancelled, "the request to \(endpoint) was cancelled")
            case .invalidURL, .emptyHost, .emptyScheme:
                self.init(.invalidURL, "the endpoint URL \(endpoint) is invalid: \(error)")
            default:
                self.init(.other, "HTTP to \(endpoint) failed: \(error)")
            }
        case let error as HTTPParserError:
            switch error {
            case .headerOverflow:
                self.init(.headersTooLarge, "\(endpoint) sent more than \(Self.size(OutboundBounds.maximumHeaderSize)) of headers")
            case .invalidEOFState:
                self.init(.closed, "\(endpoint) closed the connection \(closedWhile)")
            default:
                self.init(.notHTTP, "\(endpoint) answered with something that is not HTTP/1.1 (\(error))")
            }
        case is NIOTooManyBytesError:
            self.init(.bodyTooLarge, "\(endpoint) sent more than \(Self.size(bounds.maximumBodySize)) without finishing its body")
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            if case .body = phase {
                // The handshake was done: a TLS error now (an unclean shutdown) is a connection cut short.
                self.init(.closed, "\(endpoint) closed the connection \(closedWhile) (\(error))")
            } else {
                self.init(.tls, "TLS with \(endpoint) failed (is it really https?): \(error)")
            }
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            self.init(.refused, "connection to \(endpoint) refused: nothing listens there")
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE:
            self.init(.closed, "\(endpoint) reset the connection \(closedWhile)")
        case let error as NIOConnectionError:
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            self.init(
                refused ? .refused : .other,
                refused ? "connection to \(endpoint) refused: nothing listens there" : "cannot connect to \(endpoint): \(error)"
            )
        case is CancellationError:
            self.init(.cancelled, "the request to \(endpoint) was cancelled")
        default:
            self.init(.other, "HTTP to \(endpoint) failed: \(error)")
        }
    }

    /// The deadline passed while the body was being read.
    static func deadlinePassed(endpoint: String, received: Int, bounds: OutboundBounds) -> TransportFailure {
        received == 0
            ? TransportFailure(.stalledBody, "\(endpoint) answered its headers, then nothing until the \(seconds(bounds.deadline)) deadline")
            : TransportFailure(
                .slowBody,
                "\(endpoint) sent \(received) bytes of its body, without finishing it, within the \(seconds(bounds.deadline)) deadline"
            )
    }

    /// `64 KiB`, `128 KiB`, `4 MiB`, `1000 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0 { return "\(bytes / (1024 * 1024)) MiB" }
        return bytes >= 1024 && bytes % 1024 == 0 ? "\(bytes / 1024) KiB" : "\(bytes) bytes"
    }

    /// `10 s`, `2.5 s`: whole seconds without decimals, else one decimal.
    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        if attoseconds == 0 { return "\(whole) s" }
        let tenths = (Double(whole) + Double(attoseconds) / 1e18) * 10
        let rounded = Int64(tenths.rounded())
        return rounded % 10 == 0 ? "\(rounded / 10) s" : "\(rounded / 10).\(rounded % 10) s"
    }
}
