import NIOCore
import NIOPosix

/// Closed-loop load: each connection sends one line, waits for the reply line, and sends the next.
///
/// The same client drives the baselines and the daemon, with the same request bytes, so that only the
/// server side differs between figures.
enum BenchLoad {
    struct Figures: Sendable {
        var requests: Int
        var failures: Int
        var seconds: Double
        /// Round-trip latencies in nanoseconds, sorted.
        var latencies: [UInt64]

        var throughput: Double { Double(requests) / seconds }

        func percentile(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let index = min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.up)) - 1)
            return Double(latencies[max(0, index)]) / 1000
        }
    }

    /// Runs `requests` round trips split over `connections` connections to `path`. `hello` is sent first on
    /// each connection when given; a reply counts as a success when `isSuccess` says so.
    static func run(
        path: String, connections: Int, requests: Int, line: [UInt8], hello: [UInt8]?, recordLatencies: Bool,
        group: any EventLoopGroup, isSuccess: @escaping @Sendable (ByteBufferView) -> Bool
    ) async throws -> Figures {
        var channels: [(any Channel, BenchClientHandler)] = []
        for index in 0..<connections {
            let share = requests / connections + (index < requests % connections ? 1 : 0)
            let handler = BenchClientHandler(line: line, count: share, recordLatencies: recordLatencies, isSuccess: isSuccess)
            let channel = try await ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers([ByteToMessageHandler(BenchLineDecoder()), handler])
                    }
                }
                .connect(unixDomainSocketPath: path).get()
            if let hello {
                try await handler.exchangeHello(hello, on: channel)
            }
            channels.append((channel, handler))
        }
        let started = NIODeadline.now()
        let results = try await withThrowingTaskGroup(of: BenchClientHandler.Result.self) { group in
            for (channel, handler) in channels {
                group.addTask { try await handler.start(on: channel).get() }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let seconds = Double((NIODeadline.now() - started).nanoseconds) / 1e9
        for (channel, _) in channels { try? await channel.close() }
        return Figures(
            requests: results.reduce(0) { $0 + $1.completed }, failures: results.reduce(0) { $0 + $1.failures }, seconds: seconds,
            latencies: results.flatMap(\.latencies).sorted())
    }
}

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
