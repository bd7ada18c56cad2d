import AppFlipCore
import AppFlipProtocol
import Logging
import NIOCore

/// One client connection: enforces `hello`, request ids and limits, dispatches each request, and writes
/// exactly one reply per request, in whatever order they finish.
///
/// Everything it holds lives on the connection's event loop.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = Result<Request, RequestFailure>
    typealias OutboundOut = ServerMessage

    private let daemon: DaemonContext
    private let peer: PeerInfo?
    private var client: String?
    private var saidHello = false
    private var inFlight: Set<RequestID> = []
    private var liveApp: LiveAppHandler?
    private var isWatching = false
    /// The peer shut down its write side (`printf … | socat`): answer what is in flight, then close.
    private var inputClosed = false
    /// Between `channelRead` and `channelReadComplete`, replies wait to leave in one write (a live app's
    /// answers arrive in batches: one write answers them all).
    private var isReading = false
    private var needsFlush = false
    private var logger: Logger

    init(daemon: DaemonContext, peer: PeerInfo?) {
        self.daemon = daemon
        self.peer = peer
        var logger = daemon.logger
        logger[metadataKey: "peer_uid"] = "\(peer.map { String($0.uid) } ?? "-")"
        logger[metadataKey: "peer_pid"] = "\(peer.map { String($0.pid) } ?? "-")"
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        isReading = true
        let request: Request
        switch unwrapInboundIn(data) {
        case .success(let decoded): request = decoded
        case .failure(let failure):
            logger.debug("malformed request", metadata: ["code": "\(failure.error.code.rawValue)"])
            reply(failure.reply, context: context)
            return
        }
        let id = request.id
        if !saidHello, request.body.op != .hello {
            reply(Reply(id: id, op: request.body.op, error: ErrorBody(.helloRequired, "send {\"id\":…,\"op\":\"hello\",\"version\":\(ProtocolVersion.current)} first")), context: context)
            return
        }
        if inFlight.contains(id) {
            reply(Reply(id: id, op: request.body.op, error: ErrorBody(.duplicateID, "id \(id) is already in flight on this connection", field: "id")), context: context)
            return
        }

        switch request.body {
        case .hello(let hello):
            guard hello.version == ProtocolVersion.current else {
                reply(Reply(id: id, op: .hello, error: ErrorBody(.unsupportedVersion, "this daemon speaks protocol version \(ProtocolVersion.current), not \(hello.version)", field: "version")), context: context)
                return
            }
            saidHello = true
            client = hello.client
            reply(Reply(id: id, result: .hello(HelloResult(
                version: ProtocolVersion.current, server: "appflipd", maxLineBytes: daemon.configuration.maxLineBytes, peer: peer))), context: context)

        case .open(let open):
            guard inFlight.count < daemon.configuration.maxInFlightPerConnection else {
                reply(Reply(id: id, op: .open, error: ErrorBody(.tooManyRequests, "\(inFlight.count) requests are already in flight on this connection (maxInFlightPerConnection)")), context: context)
                return
            }
            inFlight.insert(id)
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            daemon.router.open(open, from: .init(peer: peer, client: client), on: context.eventLoop).whenComplete { result in
                let (handler, context) = bound.value
                handler.inFlight.remove(id)
                switch result {
                case .success(.success(let handled)): handler.reply(Reply(id: id, result: .open(handled)), context: context)
                case .success(.failure(let error)): handler.reply(Reply(id: id, op: .open, error: error), context: context)
                case .failure(let error):
                    handler.reply(Reply(id: id, op: .open, error: ErrorBody(.handlerFailed, "the handoff failed: \(error)")), context: context)
                }
                handler.closeIfDone(context: context)
            }

        case .register(let registration):
            reply(Reply(id: id, op: .register, outcome: register(registration, channel: context.channel)), context: context)

        case .answer(let answer):
            guard let liveApp else {
                reply(Reply(id: id, op: .answer, error: ErrorBody(.notRegistered, "only a live app answers activities; send register first")), context: context)
                return
            }
            reply(Reply(id: id, op: .answer, outcome: liveApp.answer(answer).map { .answer($0) }), context: context)

        case .explain(let explain):
            reply(Reply(id: id, op: .explain, outcome: daemon.router.explain(explain).map { .explain($0) }), context: context)

        case .apps:
            reply(Reply(id: id, result: .apps(AppsResult(apps: daemon.registry.apps))), context: context)

        case .watch:
            isWatching = true
            daemon.events.subscribe(context.channel)
            reply(Reply(id: id, result: .watch(WatchResult())), context: context)
        }
    }

    private func register(_ request: RegisterRequest, channel: any Channel) -> Result<ReplyResult, ErrorBody> {
        guard liveApp == nil else {
            return .failure(ErrorBody(.alreadyRegistered, "this connection is already a live app; open another connection for another app"))
        }
        do throws(ErrorBody) {
            let association = try AppRouteBuilder.associationJSON(of: request)
            let (route, warnings) = try AppRouteBuilder.route(
                appID: request.appID, domains: request.domains, associationJSON: association, priority: RoutePriority.live)
            let handler = LiveAppHandler(channel: channel, timeout: .milliseconds(Int64(daemon.configuration.liveAppTimeoutSeconds * 1000)))
            let app = RegisteredApp(
                route: route, domains: request.domains, claims: request.domains.compactMap(DomainClaim.init), handler: handler,
                origin: .live(peer: peer, connection: ObjectIdentifier(channel)))
            try daemon.registry.registerLive(app, uid: peer?.uid, policy: daemon.claimPolicy)
            liveApp = handler
            logger.info("live app registered", metadata: ["app": "\(request.appID)", "domains": "\(request.domains.joined(separator: " "))"])
            return .success(.register(RegisterResult(appID: request.appID, domains: request.domains, warnings: warnings)))
        } catch {
            logger.info("live app refused", metadata: ["app": "\(request.appID)", "code": "\(error.code.rawValue)", "reason": "\(error.message)"])
            return .failure(error)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case ChannelEvent.inputClosed = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        inputClosed = true
        // The last line came without a `channelReadComplete`.
        isReading = false
        flushIfNeeded(context: context)
        // A live app that can no longer answer is gone.
        endRegistration(context: context)
        closeIfDone(context: context)
    }

    /// After the peer's half-close, closes once every request has its reply; a watcher keeps streaming.
    private func closeIfDone(context: ChannelHandlerContext) {
        if inputClosed, inFlight.isEmpty, !isWatching {
            flushIfNeeded(context: context)
            context.close(promise: nil)
        }
    }

    private func endRegistration(context: ChannelHandlerContext) {
        guard let liveApp else { return }
        self.liveApp = nil
        // Unregister before failing the waiting handoffs: whoever sees their `handler_failed` must find the
        // app gone, or a retry could still be routed to the closed connection.
        daemon.registry.unregisterLive(connection: ObjectIdentifier(context.channel))
        liveApp.connectionClosed()
        logger.info("live app gone")
    }

    func channelInactive(context: ChannelHandlerContext) {
        endRegistration(context: context)
        daemon.events.unsubscribe(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let tooLong = error as? LineTooLongError {
            logger.info("line over the limit; closing", metadata: ["limit": "\(tooLong.limit)"])
            let error = ErrorBody(.lineTooLong, "a line is longer than \(tooLong.limit) bytes; the connection is closed")
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.reply(Reply(id: nil, op: nil, error: error)))).whenComplete { _ in
                channel.close(promise: nil)
            }
            return
        }
        logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    private func reply(_ reply: Reply, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.reply(reply)), promise: nil)
        if isReading { needsFlush = true } else { context.flush() }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        isReading = false
        flushIfNeeded(context: context)
        context.fireChannelReadComplete()
    }

    private func flushIfNeeded(context: ChannelHandlerContext) {
        guard needsFlush else { return }
        needsFlush = false
        context.flush()
    }
}

extension Reply {
    init(id: RequestID, op: Op, outcome: Result<ReplyResult, ErrorBody>) {
        switch outcome {
        case .success(let result): self.init(id: id, result: result)
        case .failure(let error): self.init(id: id, op: op, error: error)
        }
    }
}
