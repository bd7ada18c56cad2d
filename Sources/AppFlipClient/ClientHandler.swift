import AppFlipCore
import AppFlipFraming
import AppFlipProtocol
import FoundationEssentials
import NIOCore

/// Matches replies to requests by id, hands `activity` pushes to the live app, `event` pushes to the watch
/// stream, and fails every pending request when the connection closes.
final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Requests waiting for their reply; an answer's reply only confirms it, so nobody waits on it (`nil`).
    private var pending: [RequestID: EventLoopPromise<Reply>?] = [:]
    /// Waiters for replies no pending request claims (id null, or an id sent raw), first come first served.
    private var unmatched: [EventLoopPromise<Reply>] = []
    private var nextID: Int64 = 1
    private var isClosed = false
    /// The daemon's error about the connection itself, which it closes next: every request that can no
    /// longer be answered fails with it rather than with a bare close.
    private var closeReason: ErrorBody?
    /// Between `channelRead` and `channelReadComplete`, writes (a live app's answers) wait to leave in one.
    private var isReading = false
    /// Encoded lines not yet written: all of one read's answers in one buffer.
    private var outgoing = ByteBuffer()
    private var lines = LineReader(LineFrameDecoder(maxLineBytes: FrameLimits.maxReplyLineBytes, unterminatedLastLine: .drop))
    /// Only for messages the fast path leaves to `JSONDecoder`.
    private let decoder = JSONDecoder()
    private var encoder = LineEncoder()
    var liveApp: (any LiveAppHandling)? {
        didSet { immediateLiveApp = liveApp as? ImmediateLiveApp }
    }
    /// The live app when it answers synchronously: its answer goes out without a future.
    private var immediateLiveApp: ImmediateLiveApp?
    var events: AsyncStream<HandoffEvent>.Continuation?

    /// Sends `body` with a fresh id; the future completes with its reply.
    func send(_ body: RequestBody, context: ChannelHandlerContext) -> EventLoopFuture<Reply> {
        let id = RequestID.number(nextID)
        nextID += 1
        return send(Request(id: id, body), context: context)
    }

    func send(_ request: Request, context: ChannelHandlerContext) -> EventLoopFuture<Reply> {
        let promise = context.eventLoop.makePromise(of: Reply.self)
        guard !isClosed else {
            promise.fail(closeReason ?? ClientError.connectionClosed)
            return promise.futureResult
        }
        pending[request.id] = promise
        write(request, context: context)
        return promise.futureResult
    }

    private func write(_ request: Request, context: ChannelHandlerContext) {
        encoder.withLine(of: request) { outgoing.writeBytes($0) }
        if !isReading { flushOutgoing(context: context) }
    }

    private func flushOutgoing(context: ChannelHandlerContext) {
        guard outgoing.readableBytes > 0 else { return }
        context.writeAndFlush(wrapOutboundOut(outgoing), promise: nil)
        // Written at once, the storage is ours again and `clear` keeps it.
        outgoing.clear()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        isReading = false
        flushOutgoing(context: context)
        context.fireChannelReadComplete()
    }

    /// Writes bytes as they are; the next reply no request claims completes the future.
    func sendRaw(_ bytes: [UInt8], context: ChannelHandlerContext) -> EventLoopFuture<Reply> {
        let promise = context.eventLoop.makePromise(of: Reply.self)
        guard !isClosed else {
            promise.fail(closeReason ?? ClientError.connectionClosed)
            return promise.futureResult
        }
        unmatched.append(promise)
        flushOutgoing(context: context)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        return promise.futureResult
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        isReading = true
        do {
            try lines.read(unwrapInboundIn(data)) { line in try handle(line: line, context: context) }
        } catch {
            // Past a line it cannot read, the stream cannot be trusted: close, and fail what is pending.
            errorCaught(context: context, error: error)
        }
    }

    private func handle(line: ByteBuffer, context: ChannelHandlerContext) throws {
        let message: ServerMessage
        do {
            message = try line.withUnsafeReadableBytes { try ServerMessage.decode(line: $0, using: decoder) }
        } catch {
            throw ClientError.protocolViolation("\(error)")
        }
        switch message {
        case .reply(let reply):
            if let id = reply.id, let promise = pending.removeValue(forKey: id) {
                promise?.succeed(reply)
            } else if !unmatched.isEmpty {
                unmatched.removeFirst().succeed(reply)
            } else if reply.id == nil, case .failure(let error) = reply.outcome {
                // About the connection itself (`too_many_connections`, `line_too_long`): it closes next.
                closeReason = error
                let waiting = pending.values.compactMap { $0 }
                pending = [:]
                waiting.forEach { $0.fail(error) }
            }
        case .activity(let push):
            answer(push, context: context)
        case .event(let event):
            events?.yield(event)
        case .intent(let push):
            start(push, context: context)
        }
    }

    /// Hands an `intent` push to the live app and sends its `result`; an app that fails returns
    /// `RESULT_CANCELED`, as an Android activity that finishes without a result does.
    private func start(_ push: IntentPush, context: ChannelHandlerContext) {
        guard let liveApp else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        liveApp.handle(push, eventLoop: context.eventLoop).hop(to: context.eventLoop).whenComplete { outcome in
            let (handler, context) = bound.value
            guard !handler.isClosed else { return }
            let id = RequestID.number(handler.nextID)
            handler.nextID += 1
            handler.pending[id] = .some(nil)
            let result = (try? outcome.get()) ?? IntentResult(resultCode: IntentResult.canceled)
            handler.write(Request(id: id, .result(ResultRequest(handoff: push.handoff, result: result))), context: context)
        }
    }

    private func answer(_ push: ActivityPush, context: ChannelHandlerContext) {
        if let immediateLiveApp {
            sendAnswer(immediateLiveApp.immediateAnswer(to: push), to: push, context: context)
            return
        }
        guard let liveApp else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        liveApp.handle(push, eventLoop: context.eventLoop).hop(to: context.eventLoop).whenComplete { result in
            let (handler, context) = bound.value
            handler.sendAnswer((try? result.get()) ?? LiveAnswer(continue: false), to: push, context: context)
        }
    }

    private func sendAnswer(_ answer: LiveAnswer, to push: ActivityPush, context: ChannelHandlerContext) {
        guard !isClosed else { return }
        let id = RequestID.number(nextID)
        nextID += 1
        pending[id] = .some(nil)
        write(
            Request(id: id, .answer(AnswerRequest(handoff: push.handoff, continue: answer.continue, open: answer.open, reason: answer.reason))),
            context: context
        )
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosed = true
        let waiting = pending.values.compactMap { $0 } + unmatched
        pending = [:]
        unmatched = []
        waiting.forEach { $0.fail(closeReason ?? ClientError.connectionClosed) }
        events?.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
