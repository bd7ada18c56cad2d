import NIOCore
import NIOPosix

/// One closed-loop connection; all state lives on its event loop.
final class BenchClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Result: Sendable {
        var completed: Int
        var failures: Int
        var latencies: [UInt64]
    }

    private let line: [UInt8]
    private let count: Int
    private let recordLatencies: Bool
    private let isSuccess: @Sendable (ByteBufferView) -> Bool
    private var sent: NIODeadline = .now()
    private var result = Result(completed: 0, failures: 0, latencies: [])
    private var done: EventLoopPromise<Result>?
    private var helloReply: EventLoopPromise<Void>?
    private var context: ChannelHandlerContext?
    private var request: ByteBuffer?

    init(line: [UInt8], count: Int, recordLatencies: Bool, isSuccess: @escaping @Sendable (ByteBufferView) -> Bool) {
        self.line = line
        self.count = count
        self.recordLatencies = recordLatencies
        self.isSuccess = isSuccess
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        request = context.channel.allocator.buffer(bytes: line + [UInt8(ascii: "\n")])
        if recordLatencies { result.latencies.reserveCapacity(count) }
    }

    func exchangeHello(_ hello: [UInt8], on channel: any Channel) async throws {
        try await channel.eventLoop.flatSubmit {
            let promise = channel.eventLoop.makePromise(of: Void.self)
            self.helloReply = promise
            self.context!.writeAndFlush(self.wrapOutboundOut(channel.allocator.buffer(bytes: hello + [UInt8(ascii: "\n")])), promise: nil)
            return promise.futureResult
        }.get()
    }

    func start(on channel: any Channel) -> EventLoopFuture<Result> {
        channel.eventLoop.flatSubmit {
            let promise = channel.eventLoop.makePromise(of: Result.self)
            self.done = promise
            if self.count == 0 { promise.succeed(self.result) } else { self.sendNext() }
            return promise.futureResult
        }
    }

    private func sendNext() {
        sent = .now()
        context!.writeAndFlush(wrapOutboundOut(request!), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let helloReply {
            self.helloReply = nil
            helloReply.succeed()
            return
        }
        let reply = unwrapInboundIn(data)
        if recordLatencies { result.latencies.append(UInt64((NIODeadline.now() - sent).nanoseconds)) }
        result.completed += 1
        if !isSuccess(reply.readableBytesView) { result.failures += 1 }
        if result.completed < count {
            sendNext()
        } else {
            done?.succeed(result)
            done = nil
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        done?.fail(ChannelError.eof)
        helloReply?.fail(ChannelError.eof)
    }
}
