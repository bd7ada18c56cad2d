public import AppFlipProtocol
import Glibc
public import NIOCore
public import NIOPosix

/// How a one-shot request survives a daemon restart: when the connection cannot be made or drops before
/// the request's reply, it reconnects after a backoff and sends the request again.
///
/// Under socket activation the listening socket outlives every restart and crash, so a reconnect
/// simply waits in its backlog for the next process. A reply that arrived is never retried, except
/// `shutting_down`, which the daemon sends only for a request it did not act on. `docs/protocol.md` ("Retries and duplicates") says what a resent `open` may cause.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included; 1 never retries.
    public var maxAttempts: Int
    /// The wait before the first retry; it doubles each time, up to `maxBackoff`.
    public var initialBackoff: Duration
    /// The longest wait between two attempts, however many retries came before.
    public var maxBackoff: Duration

    /// Creates a policy; `maxAttempts` counts the first try, so 1 means never retry.
    public init(maxAttempts: Int = 5, initialBackoff: Duration = .milliseconds(50), maxBackoff: Duration = .seconds(1)) {
        precondition(maxAttempts >= 1, "a request needs at least one attempt")
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// No retry at all.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait before attempt `attempt` (2 is the first retry).
    public func backoff(beforeAttempt attempt: Int) -> Duration {
        var wait = initialBackoff
        for _ in 2..<max(attempt, 2) {
            wait = min(wait * 2, maxBackoff)
        }
        return min(wait, maxBackoff)
    }

    /// Whether `error` means no reply came and none will: the socket refused or was missing, or the
    /// connection closed before the reply.
    public static func isRetryable(_ error: any Error) -> Bool {
        switch error {
        case ClientError.connectionClosed:
            return true
        case let error as ErrorBody:
            // The timeouts close a connection only with nothing in flight: a request sent meanwhile was
            // not acted on.
            return [.shuttingDown, .tooManyConnections, .helloTimeout, .idleTimeout].contains(error.code)
        case let error as IOError:
            return [ECONNREFUSED, ENOENT, EAGAIN, ECONNRESET, EPIPE].contains(error.errnoCode)
        case let error as NIOConnectionError:
            return error.connectionErrors.contains { isRetryable($0.error) }
        case ChannelError.ioOnClosedChannel, ChannelError.alreadyClosed, ChannelError.eof:
            return true
        default:
            return false
        }
    }
}

extension AppFlipConnection {
    /// Connects to `path`, sends one request, closes, and returns its reply, retrying by `retry` while
    /// no reply has come. A daemon's `hello` refusal is thrown as its ``ErrorBody``.
    ///
    /// - Parameter onRetry: told each attempt that failed and will be retried, with its error.
    public static func send(
        _ body: RequestBody,
        to path: String,
        client: String? = nil,
        retry: RetryPolicy = RetryPolicy(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        onRetry: @Sendable (_ attempt: Int, _ error: any Error) -> Void = { _, _ in }
    ) async throws -> Reply {
        var attempt = 1
        while true {
            do {
                let connection = try await connect(to: path, client: client, eventLoopGroup: eventLoopGroup)
                do {
                    let reply = try await connection.send(body).get()
                    await connection.close()
                    if case .failure(let error) = reply.outcome, error.code == .shuttingDown, attempt < retry.maxAttempts {
                        throw error
                    }
                    return reply
                } catch {
                    await connection.close()
                    throw error
                }
            } catch  where attempt < retry.maxAttempts && RetryPolicy.isRetryable(error) {
                onRetry(attempt, error)
                attempt += 1
                try await Task.sleep(for: retry.backoff(beforeAttempt: attempt))
            }
        }
    }
}
