import AppFlipCore
import AppFlipFraming
import AppFlipProtocol
import FoundationEssentials
import Logging
import NIOCore

/// One client connection: enforces `hello`, request ids and limits, dispatches each request, and writes
/// exactly one reply per request, in whatever order they finish.
///
/// Everything it holds lives on the connection's event loop.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let daemon: DaemonContext
    private let peer: PeerInfo?
    private var client: String?
    private var saidHello = false
    private var inFlight = InFlightRequestIDs()
    private var liveApp: LiveAppHandler?
    /// The Android identity this connection registered: who it is when it starts an intent.
    private var androidCaller: AndroidCaller?
    private var isWatching = false
    /// The peer shut down its write side (`printf … | socat`): answer what is in flight, then close.
    private var inputClosed = false
    /// A line went over the limit: the error is on its way, nothing more is read, and the connection closes
    /// once every request already in flight has its reply.
    private var refusingInput = false
    /// The connection is closing behind its last lines.
    private var isClosing = false
    /// Closes a connection that has not completed `hello` in `helloTimeoutSeconds`.
    private var helloTimer: Scheduled<Void>?
    /// Checks for `idleTimeoutSeconds` without a whole line; armed for when the connection would be idle
    /// long enough, and re-armed only when it fires, so that reading costs no timer work.
    private var idleTimer: Scheduled<Void>?
    /// When the connection last read a whole line or finished its last request in flight.
    private var lastActivity = NIODeadline.uptimeNanoseconds(0)
    /// A whole line was read in the current read: ``lastActivity`` moves at `channelReadComplete`.
    private var readALine = false
    private var lines: LineReader
    /// Only for lines the fast path leaves to `JSONDecoder`, which then reports what is wrong.
    private let decoder = JSONDecoder()
    private let outbound: OutboundLines
    private let logger: Logger

    /// Made on the channel's event loop, as the connection's only handler.
    init(daemon: DaemonContext, peer: PeerInfo?, channel: any Channel) {
        self.daemon = daemon
        self.peer = peer
        self.outbound = OutboundLines(channel: channel)
        self.lines = LineReader(LineFrameDecoder(maxLineBytes: daemon.configuration.maxLineBytes, unterminatedLastLine: .deliver))
        var logger = daemon.logger
        logger[metadataKey: "peer_uid"] = "\(peer.map { String($0.uid) } ?? "-")"
        logger[metadataKey: "peer_pid"] = "\(peer.map { String($0.pid) } ?? "-")"
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        outbound.attach(context)
        let loop = context.eventLoop
        lastActivity = loop.now
        let bound = NIOLoopBound(self, eventLoop: loop)
        helloTimer = loop.scheduleTask(in: Self.timeAmount(seconds: daemon.configuration.helloTimeoutSeconds)) {
            bound.value.helloTimerFired()
        }
        armIdleTimer(at: lastActivity)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        outbound.detach()
        cancelTimers()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusingInput, !isClosing else { return }
        // The replies to this read leave in one write at its end, here and not in `channelReadComplete`: a
        // write that fails there (the peer is gone) closes the channel inside NIO's end-of-file handling,
        // which then half-closes the closed channel and trips NIO's `isRegisteredFully` assertion.
        outbound.beginReading()
        defer { outbound.endReading() }
        do {
            try lines.read(unwrapInboundIn(data)) { line in handle(line: line, context: context) }
        } catch {
            lineTooLong(error, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if readALine {
            readALine = false
            lastActivity = context.eventLoop.now
        }
        context.fireChannelReadComplete()
    }

    private func handle(line: ByteBuffer, context: ChannelHandlerContext) {
        readALine = true
        switch line.withUnsafeReadableBytes({ Request.decode(line: $0, using: decoder) }) {
        case .success(let request): handle(request, context: context)
        case .failure(let failure):
            logger.debug("malformed request", metadata: ["code": "\(failure.error.code.rawValue)"])
            reply(failure.reply)
        }
    }

    private func handle(_ request: Request, context: ChannelHandlerContext) {
        let id = request.id
        if !saidHello, request.body.op != .hello {
            reply(
                Reply(
                    id: id,
                    op: request.body.op,
                    error: ErrorBody(.helloRequired, "send {\"id\":…,\"op\":\"hello\",\"version\":\(ProtocolVersion.current)} first")
                )
            )
            return
        }
        if inFlight.contains(id) {
            reply(Reply(id: id, op: request.body.op, error: ErrorBody(.duplicateID, "id \(id) is already in flight on this connection", field: "id")))
            return
        }

        switch request.body {
        case .hello(let hello):
            sayHello(hello, id: id)

        case .open(let open):
            guard admitHandoff(id: id, op: .open) else { return }
            HandoffHop.open(
                open,
                from: .init(peer: peer, client: client),
                replyingTo: .connection(NIOLoopBound(self, eventLoop: context.eventLoop), id: id),
                on: context.eventLoop,
                daemon: daemon
            )

        case .register(let registration):
            reply(Reply(id: id, op: .register, outcome: register(registration, channel: context.channel)))

        case .answer(let answer):
            guard let liveApp else {
                reply(Reply(id: id, op: .answer, error: ErrorBody(.notRegistered, "only a live app answers activities; send register first")))
                return
            }
            switch liveApp.answer(answer) {
            // Nothing waits on the acknowledgement: it leaves with the next push (protocol.md, `answer`).
            case .success(let answered): outbound.sendAcknowledgement(.reply(Reply(id: id, result: .answer(answered))))
            case .failure(let error): reply(Reply(id: id, op: .answer, error: error))
            }

        case .start(let start):
            guard admitHandoff(id: id, op: .start) else { return }
            IntentHop.start(
                start,
                caller: androidCaller,
                from: .init(peer: peer, client: client),
                replyingTo: NIOLoopBound(self, eventLoop: context.eventLoop),
                id: id,
                on: context.eventLoop,
                daemon: daemon
            )

        case .result(let result):
            guard let liveApp else {
                reply(Reply(id: id, op: .result, error: ErrorBody(.notRegistered, "only a live app returns results; send register first")))
                return
            }
            switch liveApp.result(result) {
            case .success(let answered): outbound.sendAcknowledgement(.reply(Reply(id: id, result: .result(answered))))
            case .failure(let error): reply(Reply(id: id, op: .result, error: error))
            }

        case .explain(let explain):
            reply(Reply(id: id, op: .explain, outcome: daemon.router.explain(explain).map { .explain($0) }))

        case .apps:
            reply(Reply(id: id, result: .apps(daemon.registry.apps(on: daemon.configuration.android))))

        case .watch:
            isWatching = true
            daemon.events.subscribe(context.channel, outbound: outbound)
            reply(Reply(id: id, result: .watch(WatchResult())))
        }
    }

    /// `hello`: the protocol version must be this daemon's; the reply says what the daemon is and who the
    /// peer is, and the connection may send anything else from then on.
    private func sayHello(_ hello: HelloRequest, id: RequestID) {
        guard hello.version == ProtocolVersion.current else {
            reply(
                Reply(
                    id: id,
                    op: .hello,
                    error: ErrorBody(
                        .unsupportedVersion,
                        "this daemon speaks protocol version \(ProtocolVersion.current), not \(hello.version)",
                        field: "version"
                    )
                )
            )
            return
        }
        saidHello = true
        client = hello.client
        helloTimer?.cancel()
        helloTimer = nil
        reply(
            Reply(
                id: id,
                result: .hello(
                    HelloResult(
                        version: ProtocolVersion.current,
                        server: "appflipd",
                        serverVersion: ReleaseVersion.current,
                        maxLineBytes: daemon.configuration.maxLineBytes,
                        peer: peer
                    )
                )
            )
        )
    }

    /// Takes `id` into flight for a handoff (`open`, `start`), unless the connection has
    /// `maxInFlightPerConnection` already, which it answers.
    private func admitHandoff(id: RequestID, op: Op) -> Bool {
        guard inFlight.count < daemon.configuration.maxInFlightPerConnection else {
            let message = "\(inFlight.count) requests are already in flight on this connection (maxInFlightPerConnection)"
            reply(Reply(id: id, op: op, error: ErrorBody(.tooManyRequests, message)))
            return false
        }
        inFlight.insert(id)
        return true
    }

    private func register(_ request: RegisterRequest, channel: any Channel) -> Result<ReplyResult, ErrorBody> {
        guard liveApp == nil else {
            return .failure(ErrorBody(.alreadyRegistered, "this connection is already a live app; open another connection for another app"))
        }
        do throws(ErrorBody) {
            let route: AppRoute?
            let warnings: [String]
            if request.android != nil, request.domains.isEmpty, request.association == nil, request.components == nil {
                // An app that only speaks intents claims no links.
                try AppRouteBuilder.checkAppID(request.appID)
                (route, warnings) = (nil, [])
            } else {
                let association = try AppRouteBuilder.associationJSON(of: request)
                (route, warnings) = try AppRouteBuilder.route(
                    appID: request.appID,
                    domains: request.domains,
                    associationJSON: association,
                    priority: RoutePriority.live
                )
            }
            var appLinks: AppLinkVerification?
            if let identity = request.android {
                appLinks = try AppLinkVerification(identity: identity, statementLists: try Self.statementLists(of: request))
            }
            let handler = LiveAppHandler(
                outbound: outbound,
                timeout: .milliseconds(Int64(daemon.configuration.liveAppTimeoutSeconds * 1000)),
                maxPending: daemon.configuration.maxPendingPerLiveApp
            )
            let app = RegisteredApp(
                appID: request.appID,
                route: route,
                domains: request.domains,
                claims: request.domains.compactMap(DomainClaim.init),
                android: request.android,
                appLinks: appLinks,
                handler: handler,
                origin: .live(peer: peer, connection: ObjectIdentifier(channel))
            )
            try daemon.registry.registerLive(app, uid: peer?.uid, policy: daemon.claimPolicy)
            liveApp = handler
            androidCaller = request.android?.caller
            handler.writabilityChanged()
            logger.info("live app registered", metadata: ["app": "\(request.appID)", "domains": "\(request.domains.joined(separator: " "))"])
            return .success(.register(RegisterResult(appID: request.appID, domains: request.domains, warnings: warnings)))
        } catch {
            logger.info("live app refused", metadata: ["app": "\(request.appID)", "code": "\(error.code.rawValue)", "reason": "\(error.message)"])
            return .failure(error)
        }
    }

    /// A `register` request's statement lists, as the bytes a host would serve, by host.
    private static func statementLists(of request: RegisterRequest) throws(ErrorBody) -> [String: [UInt8]] {
        var lists: [String: [UInt8]] = [:]
        for (host, document) in request.assetLinks {
            do {
                lists[host.lowercased()] = Array(try JSONEncoder().encode(document))
            } catch {
                throw ErrorBody(.invalidRequest, "the statement list cannot be encoded: \(error)", field: "android.assetLinks.\(host)")
            }
        }
        return lists
    }

    /// A live app's connection went over or back under its high water mark (see ``LiveAppHandler``).
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        liveApp?.writabilityChanged()
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is DaemonStopping {
            stop(context: context)
            return
        }
        guard case ChannelEvent.inputClosed = event else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        inputClosed = true
        if !refusingInput, !isClosing {
            // A last line without its newline is still a line; the peer sent nothing after it.
            outbound.beginReading()
            do {
                try lines.finish { line in handle(line: line, context: context) }
            } catch {
                lineTooLong(error, context: context)
            }
            outbound.endReading()
        }
        // A live app that can no longer answer is gone.
        endRegistration(context: context)
        closeIfDone()
    }

    /// Closes once every request has its reply, after the peer's half-close (a watcher keeps streaming
    /// then) or a line over the limit.
    private func closeIfDone() {
        guard !isClosing, inFlight.isEmpty, refusingInput || (inputClosed && !isWatching) else { return }
        isClosing = true
        outbound.close()
    }

    /// The daemon is stopping: reads nothing more, and closes behind every line it holds, so that each
    /// request read so far leaves with its reply (a live app's acknowledgements too, which would otherwise
    /// wait for their timer).
    private func stop(context: ChannelHandlerContext) {
        guard !isClosing else { return }
        isClosing = true
        cancelTimers()
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        outbound.close()
    }

    private func endRegistration(context: ChannelHandlerContext) {
        guard let liveApp else { return }
        self.liveApp = nil
        androidCaller = nil
        // Unregister before failing the waiting handoffs: whoever sees their `handler_failed` must find the
        // app gone, or a retry could still be routed to the closed connection.
        daemon.registry.unregisterLive(connection: ObjectIdentifier(context.channel))
        if let fellBehind = liveApp.connectionClosed() {
            logger.info("live app closed: it fell behind", metadata: ["reason": "\(fellBehind)"])
        } else {
            logger.info("live app gone")
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        endRegistration(context: context)
        daemon.events.unsubscribe(context.channel)
        context.fireChannelInactive()
    }

    /// Answers a line over the limit with `line_too_long` and reads nothing more: what follows it cannot be
    /// framed. The requests already in flight still get their replies (one per request), then it closes.
    private func lineTooLong(_ error: any Error, context: ChannelHandlerContext) {
        guard !refusingInput, !isClosing else { return }
        refusingInput = true
        context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        let limit = (error as? LineTooLongError)?.limit ?? daemon.configuration.maxLineBytes
        logger.info("line over the limit; closing after the replies in flight", metadata: ["limit": "\(limit)", "in_flight": "\(inFlight.count)"])
        reply(
            Reply(
                id: nil,
                op: nil,
                error: ErrorBody(
                    .lineTooLong,
                    "a line is longer than \(limit) bytes; nothing more is read, and the connection closes once the requests in flight are answered"
                )
            )
        )
        closeIfDone()
    }

    private func helloTimerFired() {
        helloTimer = nil
        guard !saidHello, !isClosing else { return }
        // No request is in flight before `hello`: nothing is left to answer.
        let seconds = Self.description(seconds: daemon.configuration.helloTimeoutSeconds)
        closeNow(
            ErrorBody(.helloTimeout, "no hello within \(seconds) seconds (helloTimeoutSeconds); the connection is closed"),
            log: "no hello in time; closing"
        )
    }

    /// Arms the idle check for `idleTimeoutSeconds` after `start`, unless the timeout is off.
    private func armIdleTimer(at start: NIODeadline) {
        let seconds = daemon.configuration.idleTimeoutSeconds
        guard seconds > 0, !isClosing else { return }
        let loop = outbound.channel.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        idleTimer = loop.scheduleTask(deadline: start + Self.timeAmount(seconds: seconds)) { bound.value.idleTimerFired() }
    }

    private func idleTimerFired() {
        idleTimer = nil
        guard !isClosing else { return }
        let now = outbound.channel.eventLoop.now
        // A request in flight, a live app waiting for activities, a watcher: not idle. Look again later;
        // the last request's end moves `lastActivity`.
        if !inFlight.isEmpty || liveApp != nil || isWatching {
            armIdleTimer(at: now)
            return
        }
        let timeout = Self.timeAmount(seconds: daemon.configuration.idleTimeoutSeconds)
        guard now - lastActivity >= timeout else {
            armIdleTimer(at: lastActivity)
            return
        }
        let seconds = Self.description(seconds: daemon.configuration.idleTimeoutSeconds)
        closeNow(
            ErrorBody(.idleTimeout, "no request for \(seconds) seconds (idleTimeoutSeconds); the connection is closed"),
            log: "idle; closing"
        )
    }

    /// Closes a connection with nothing in flight after one error line about the connection itself.
    private func closeNow(_ error: ErrorBody, log message: Logger.Message) {
        isClosing = true
        cancelTimers()
        logger.info(message, metadata: ["code": "\(error.code.rawValue)"])
        outbound.close(after: .reply(Reply(id: nil, op: nil, error: error)))
    }

    private func cancelTimers() {
        helloTimer?.cancel()
        helloTimer = nil
        idleTimer?.cancel()
        idleTimer = nil
    }

    private static func timeAmount(seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(seconds * 1_000_000_000))
    }

    /// `10` rather than `10.0`, `0.5` as it is.
    private static func description(seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// Replies to the `open` request `id` with how its handoff ended.
    func openFinished(id: RequestID, _ outcome: Result<OpenResult, ErrorBody>) {
        inFlight.remove(id)
        if inFlight.isEmpty { lastActivity = outbound.channel.eventLoop.now }
        switch outcome {
        case .success(let result): reply(Reply(id: id, result: .open(result)))
        case .failure(let error): reply(Reply(id: id, op: .open, error: error))
        }
        closeIfDone()
    }

    /// Replies to the `start` request `id` with how its intent ended.
    func startFinished(id: RequestID, _ outcome: Result<StartResult, ErrorBody>) {
        inFlight.remove(id)
        if inFlight.isEmpty { lastActivity = outbound.channel.eventLoop.now }
        switch outcome {
        case .success(let result): reply(Reply(id: id, result: .start(result)))
        case .failure(let error): reply(Reply(id: id, op: .start, error: error))
        }
        closeIfDone()
    }

    private func reply(_ reply: Reply) {
        outbound.send(.reply(reply))
    }
}

/// Sent to every connection when the daemon stops, after the grace period: the connection writes what it
/// holds and closes (``DaemonService`` closes it anyway at the end of the grace period).
struct DaemonStopping: Sendable {}

extension Reply {
    init(id: RequestID, op: Op, outcome: Result<ReplyResult, ErrorBody>) {
        switch outcome {
        case .success(let result): self.init(id: id, result: result)
        case .failure(let error): self.init(id: id, op: op, error: error)
        }
    }
}
