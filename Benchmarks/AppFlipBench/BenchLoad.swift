import NIOCore
import NIOPosix

/// Closed-loop load: each connection sends one line, waits for the reply line, and sends the next.
///
/// The same client drives the baselines and the daemon, with the same request bytes, so that only the
/// server side differs between figures.
enum BenchLoad {
    /// Runs `requests` round trips split over `connections` connections to `path`. `hello` is sent first on
    /// each connection when given; a reply counts as a success when `isSuccess` says so. The figures'
    /// latencies are every reply's, in microseconds.
    static func run(
        path: String,
        connections: Int,
        requests: Int,
        line: [UInt8],
        hello: [UInt8]?,
        recordLatencies: Bool,
        group: any EventLoopGroup,
        isSuccess: @escaping @Sendable (ByteBufferView) -> Bool
    ) async throws -> BenchFigures {
        var channels: [(any Channel, BenchClientHandler)] = []
        for index in 0..<connections {
            let share = requests / connections + (index < requests % connections ? 1 : 0)
            let handler = BenchClientHandler(line: line, count: share, recordLatencies: recordLatencies, isSuccess: isSuccess)
            let channel = try await ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers([ByteToMessageHandler(BenchFraming.decoder()), handler])
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
        return BenchFigures(
            operations: results.reduce(0) { $0 + $1.completed },
            failures: results.reduce(0) { $0 + $1.failures },
            seconds: seconds,
            latencies: results.flatMap(\.latencies).map { Double($0) / 1000 }
        )
    }
}
