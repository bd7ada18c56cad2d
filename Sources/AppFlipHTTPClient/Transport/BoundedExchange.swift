public import AsyncHTTPClient
import NIOCore
public import NIOHTTP1
import Synchronization

/// An answer read whole within its bounds.
public struct BoundedResponse: Sendable {
    /// The status line's code and reason.
    public var status: HTTPResponseStatus
    /// The protocol version the answer came in (HTTP/2 when TLS negotiated it), for a record of the exchange.
    public var version: HTTPVersion
    /// The headers, as sent.
    public var headers: HTTPHeaders
    /// The body, as sent: never decompressed (the client asks for no encoding and inflates none).
    public var body: [UInt8]
}

extension HTTPClient {
    /// Sends `request` and reads its whole answer within `bounds`: the way appflip and appflipd talk to a
    /// partner or Google server.
    /// - Parameter endpoint: what a failure's sentence calls the server, e.g. `the token endpoint URL`.
    /// - Throws: a `TransportFailure` naming `endpoint` and, when one was reached, the bound.
    public func exchange(
        _ request: HTTPClientRequest,
        bounds: OutboundBounds,
        endpoint: String
    ) async throws(TransportFailure) -> BoundedResponse {
        let started = try await startExchange(request, bounds: bounds, endpoint: endpoint)
        return BoundedResponse(status: started.status, version: started.version, headers: started.headers, body: try await started.body())
    }

    /// Sends `request` and returns once the headers are in, for a caller that judges them before the body
    /// (the hosted association file's rules); ``StartedExchange/body()`` reads the body within what is left.
    public func startExchange(
        _ request: HTTPClientRequest,
        bounds: OutboundBounds,
        endpoint: String
    ) async throws(TransportFailure) -> StartedExchange {
        let start = ContinuousClock.now
        // AsyncHTTPClient's own deadline: connecting and the headers (it ends when they are in).
        let deadline = NIODeadline.now() + TimeAmount(bounds.deadline)
        do {
            let response: HTTPClientResponse
            do {
                response = try await execute(request, deadline: deadline)
            } catch ChannelError.ioOnClosedChannel {
                // The pool handed out a connection the server had just closed, and AsyncHTTPClient failed the
                // request before writing a byte of it: sending it again on a new connection is safe for any
                // method (RFC 9112 §9.3.1), and is what a browser does. Once, within the same deadline.
                response = try await execute(request, deadline: deadline)
            }
            return StartedExchange(response: response, bounds: bounds, endpoint: endpoint, deadline: start + bounds.deadline)
        } catch {
            let secure = request.url.lowercased().hasPrefix("https:")
            throw TransportFailure(error, endpoint: endpoint, secure: secure, phase: .head, bounds: bounds, elapsed: .now - start)
        }
    }
}

/// An exchange whose headers are in and whose body is still to be read, within the same bounds.
public struct StartedExchange: Sendable {
    private let response: HTTPClientResponse
    private let bounds: OutboundBounds
    private let endpoint: String
    private let deadline: ContinuousClock.Instant

    fileprivate init(response: HTTPClientResponse, bounds: OutboundBounds, endpoint: String, deadline: ContinuousClock.Instant) {
        self.response = response
        self.bounds = bounds
        self.endpoint = endpoint
        self.deadline = deadline
    }

    /// The status line's code and reason.
    public var status: HTTPResponseStatus { response.status }
    /// The protocol version the answer came in.
    public var version: HTTPVersion { response.version }
    /// The headers, as sent.
    public var headers: HTTPHeaders { response.headers }

    /// The whole body, read once: refused at once when its `Content-Length` is over the cap, cut at the cap
    /// (`collect(upTo:)`) when it is fast and at the deadline when it is slow or silent.
    public func body() async throws(TransportFailure) -> [UInt8] {
        let (response, bounds, deadline) = (self.response, self.bounds, self.deadline)
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > bounds.maximumBodySize {
            throw TransportFailure(
                .bodyTooLarge,
                "\(endpoint) announced a body of \(declared) bytes (Content-Length), over the \(TransportFailure.size(bounds.maximumBodySize)) cap"
            )
        }
        let received = ReceivedBytes()
        do {
            // AsyncHTTPClient's deadline ended with the headers: the body races what is left of it.
            let body = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask {
                    let counted = response.body.map { chunk in
                        received.count.add(chunk.readableBytes, ordering: .relaxed)
                        return chunk
                    }
                    let body = try await counted.collect(upTo: bounds.maximumBodySize)
                    // A cancelled read ends early without an error: what it read is not the body.
                    try Task.checkCancellation()
                    return body
                }
                group.addTask {
                    try await Task.sleep(until: deadline, clock: .continuous)
                    return nil
                }
                defer { group.cancelAll() }
                guard let body = try await group.next() ?? nil else { throw DeadlinePassed() }
                return body
            }
            return Array(buffer: body)
        } catch is DeadlinePassed {
            throw TransportFailure.deadlinePassed(endpoint: endpoint, received: received.count.load(ordering: .relaxed), bounds: bounds)
        } catch {
            throw TransportFailure(
                error,
                endpoint: endpoint,
                phase: .body(received: received.count.load(ordering: .relaxed)),
                bounds: bounds,
                elapsed: .now - (deadline - bounds.deadline)
            )
        }
    }
}

/// The body bytes seen so far, for the sentence that says how much of a slow body came.
private final class ReceivedBytes: Sendable {
    let count = Atomic<Int>(0)
}

private struct DeadlinePassed: Error {}
