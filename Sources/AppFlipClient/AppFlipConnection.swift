public import AppFlipCore
public import AppFlipProtocol
public import NIOCore
public import NIOPosix

/// A connection to appflipd speaking protocol v1.
///
/// Requests are pipelined: any number may be in flight, each gets a fresh id, and replies are matched by id
/// in whatever order they come. Every method is safe to call from any thread; the future-returning ones
/// do no thread hop when called on the connection's event loop, which keeps benchmarks honest.
public final class AppFlipConnection: Sendable {
    /// The NIO channel to the daemon's Unix socket, for callers that drive it directly (benchmarks, raw writes).
    public let channel: any Channel
    /// The daemon's answer to `hello`.
    public let hello: HelloResult
    private let handler: NIOLoopBound<(ClientHandler, ChannelHandlerContext)>

    private init(channel: any Channel, hello: HelloResult, handler: NIOLoopBound<(ClientHandler, ChannelHandlerContext)>) {
        self.channel = channel
        self.hello = hello
        self.handler = handler
    }

    /// Connects to the socket at `path` and says `hello`.
    public static func connect(
        to path: String,
        client: String? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> AppFlipConnection {
        // The handler is in place before the connection is: a refusal the daemon writes at once is read.
        let (channel, handler) = try await ClientBootstrap(group: eventLoopGroup).connect(unixDomainSocketPath: path) { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = ClientHandler()
                try channel.pipeline.syncOperations.addHandler(handler)
                let context = try channel.pipeline.syncOperations.context(handler: handler)
                return (channel, NIOLoopBound((handler, context), eventLoop: channel.eventLoop))
            }
        }
        let reply = try await Self.send(.hello(HelloRequest(client: client)), via: handler, on: channel.eventLoop).get()
        guard case .success(.hello(let hello)) = reply.outcome else {
            try? await channel.close()
            if case .failure(let error) = reply.outcome { throw error }
            throw ClientError.unexpectedReply(reply.op)
        }
        return AppFlipConnection(channel: channel, hello: hello, handler: handler)
    }

    // MARK: Futures, for pipelining and benchmarks

    /// Sends `body` with a fresh id.
    public func send(_ body: RequestBody) -> EventLoopFuture<Reply> {
        Self.send(body, via: handler, on: channel.eventLoop)
    }

    /// Sends a request with the caller's own id.
    public func send(_ request: Request) -> EventLoopFuture<Reply> {
        onLoop { handler, context in handler.send(request, context: context) }
    }

    /// Writes bytes exactly as given (a malformed line, half a line…); the future completes with the next
    /// reply that no request sent through ``send(_:)-swift.method`` claims.
    public func sendRaw(_ bytes: [UInt8]) -> EventLoopFuture<Reply> {
        onLoop { handler, context in handler.sendRaw(bytes, context: context) }
    }

    // MARK: async

    /// Sends `body` and returns its result, throwing the daemon's `ErrorBody` when the reply is an error.
    public func request(_ body: RequestBody) async throws -> ReplyResult {
        let reply = try await send(body).get()
        return try reply.outcome.get()
    }

    /// Hands an activity for `url` to the app that claims it.
    public func open(_ url: String, universalLinksOnly: Bool = true) async throws -> OpenResult {
        try await open(OpenRequest(activity: Activity(webpageURL: url), options: OpenOptions(universalLinksOnly: universalLinksOnly)))
    }

    /// Sends `open` with an explicit `activity` and options, and waits for the handoff's outcome.
    /// - Throws: ``ClientError``, or the daemon's `ErrorBody` when the handoff failed.
    public func open(_ request: OpenRequest) async throws -> OpenResult {
        guard case .open(let result) = try await self.request(.open(request)) else { throw ClientError.unexpectedReply(.open) }
        return result
    }

    /// Starts the activity `intent` resolves to, as `startActivity` or, with `forResult`,
    /// `startActivityForResult` does, and waits for it to finish. The started app learns this connection's
    /// registered Android identity as its caller, and only for a start for a result.
    /// - Returns: where it went, and for `forResult` the result code and extras.
    /// - Throws: ``ClientError``, or the daemon's `ErrorBody` (`unknown_package`, `activity_not_found`, …).
    public func start(_ intent: Intent, forResult: Bool) async throws -> StartResult {
        guard case .start(let result) = try await request(.start(StartRequest(intent: intent, forResult: forResult))) else {
            throw ClientError.unexpectedReply(.start)
        }
        return result
    }

    /// Asks the daemon which app would receive `url` and which AASA rule decides, without delivering anything.
    public func explain(_ url: String) async throws -> ExplainResult {
        guard case .explain(let result) = try await request(.explain(ExplainRequest(url: url))) else { throw ClientError.unexpectedReply(.explain) }
        return result
    }

    /// Lists every registered app, static and live, as the `apps` op reports them.
    public func apps() async throws -> [AppInfo] {
        guard case .apps(let result) = try await request(.apps) else { throw ClientError.unexpectedReply(.apps) }
        return result.apps
    }

    /// Makes this connection a live app; `handler` answers every `activity` until the connection closes.
    public func register(_ registration: RegisterRequest, handler liveApp: some LiveAppHandling) async throws -> RegisterResult {
        try await onLoop { handler, context in
            handler.liveApp = liveApp
            return handler.send(.register(registration), context: context)
        }.flatMapThrowing { reply -> RegisterResult in
            guard case .register(let result) = try reply.outcome.get() else { throw ClientError.unexpectedReply(reply.op) }
            return result
        }.get()
    }

    /// Subscribes to handoff events; the stream ends when the connection closes.
    public func watch() async throws -> AsyncStream<HandoffEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: HandoffEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let reply = try await onLoop { handler, context in
            handler.events = continuation
            return handler.send(.watch, context: context)
        }.get()
        _ = try reply.outcome.get()
        return stream
    }

    /// Closes the connection; a live app registered on it is unregistered by the daemon. Errors are ignored: the channel may already be gone.
    public func close() async {
        try? await channel.close()
    }

    private func onLoop<Value: Sendable>(_ body: @escaping (ClientHandler, ChannelHandlerContext) -> EventLoopFuture<Value>) -> EventLoopFuture<Value>
    {
        Self.onLoop(handler, on: channel.eventLoop, body)
    }

    private static func send(
        _ body: RequestBody,
        via handler: NIOLoopBound<(ClientHandler, ChannelHandlerContext)>,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<Reply> {
        onLoop(handler, on: eventLoop) { handler, context in handler.send(body, context: context) }
    }

    private static func onLoop<Value: Sendable>(
        _ handler: NIOLoopBound<(ClientHandler, ChannelHandlerContext)>,
        on eventLoop: any EventLoop,
        _ body: @escaping (ClientHandler, ChannelHandlerContext) -> EventLoopFuture<Value>
    ) -> EventLoopFuture<Value> {
        if eventLoop.inEventLoop { return body(handler.value.0, handler.value.1) }
        let unchecked = UncheckedSendableBox(body)
        return eventLoop.flatSubmit { unchecked.value(handler.value.0, handler.value.1) }
    }
}

/// Carries a closure that runs only on the event loop it was made for.
private struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
