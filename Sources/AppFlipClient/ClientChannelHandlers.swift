import AppFlipProtocol
import FoundationEssentials
import NIOCore

/// Splits the daemon's byte stream into lines. Replies can be long (`apps` on a big registry), so the
/// limit is generous; it only stops a runaway peer.
struct ClientLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    static let maxLineBytes = 64 << 20
    private var searched = 0

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.dropFirst(searched).firstIndex(of: UInt8(ascii: "\n")) else {
            searched = view.count
            guard view.count <= Self.maxLineBytes else { throw ClientError.protocolViolation("a line over \(Self.maxLineBytes) bytes") }
            return .needMoreData
        }
        let line = buffer.readSlice(length: newline - view.startIndex)!
        buffer.moveReaderIndex(forwardBy: 1)
        searched = 0
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }
}

/// Matches replies to requests by id, hands `activity` pushes to the live app, `event` pushes to the watch
/// stream, and fails every pending request when the connection closes.
final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var pending: [RequestID: EventLoopPromise<Reply>] = [:]
    /// Waiters for replies no pending request claims (id null, or an id sent raw), first come first served.
    private var unmatched: [EventLoopPromise<Reply>] = []
    private var nextID: Int64 = 1
    private var isClosed = false
    private let decoder = JSONDecoder()
    var liveApp: (any LiveAppHandling)?
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
            promise.fail(ClientError.connectionClosed)
            return promise.futureResult
        }
        var buffer = context.channel.allocator.buffer(capacity: 256)
        buffer.writeBytes(request.encodedLine())
        buffer.writeInteger(UInt8(ascii: "\n"))
        pending[request.id] = promise
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        return promise.futureResult
    }

    /// Writes bytes as they are; the next reply no request claims completes the future.
    func sendRaw(_ bytes: [UInt8], context: ChannelHandlerContext) -> EventLoopFuture<Reply> {
        let promise = context.eventLoop.makePromise(of: Reply.self)
        guard !isClosed else {
            promise.fail(ClientError.connectionClosed)
            return promise.futureResult
        }
        unmatched.append(promise)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        return promise.futureResult
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        let message: ServerMessage
        do {
            message = try line.withUnsafeReadableBytes { try ServerMessage.decode(line: $0, using: decoder) }
        } catch {
            context.fireErrorCaught(ClientError.protocolViolation("\(error)"))
            return
        }
        switch message {
        case .reply(let reply):
            if let id = reply.id, let promise = pending.removeValue(forKey: id) {
                promise.succeed(reply)
            } else if !unmatched.isEmpty {
                unmatched.removeFirst().succeed(reply)
            }
        case .activity(let push):
            answer(push, context: context)
        case .event(let event):
            events?.yield(event)
        }
    }

    private func answer(_ push: ActivityPush, context: ChannelHandlerContext) {
        guard let liveApp else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        liveApp.handle(push, eventLoop: context.eventLoop).hop(to: context.eventLoop).whenComplete { result in
            let (handler, context) = bound.value
            let answer = (try? result.get()) ?? LiveAnswer(continue: false)
            _ = handler.send(.answer(AnswerRequest(handoff: push.handoff, continue: answer.continue, open: answer.open)), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        isClosed = true
        let waiting = Array(pending.values) + unmatched
        pending = [:]
        unmatched = []
        waiting.forEach { $0.fail(ClientError.connectionClosed) }
        events?.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
