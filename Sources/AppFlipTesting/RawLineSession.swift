import AppFlipFraming
public import AppFlipProtocol
import NIOCore
import NIOPosix

/// A bare line-oriented connection that says nothing by itself (no `hello`, no ids), for protocol tests.
public final class RawLineSession {
    private let channel: any Channel
    private var lines: AsyncStream<ByteBuffer>.AsyncIterator

    private init(channel: any Channel, lines: AsyncStream<ByteBuffer>) {
        self.channel = channel
        self.lines = lines.makeAsyncIterator()
    }

    /// Connects to `path`, runs `body`, and closes the connection.
    public static func with<Result>(socket path: String, _ body: (RawLineSession) async throws -> Result) async throws -> Result {
        // The line collector is in place before the connection is, so that a line the daemon writes at once
        // (a refusal) is kept. It is a plain handler feeding a stream: nothing in it must be finished by
        // hand, so a connect that fails drops it safely.
        let (lines, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let lines = LineFrameDecoder(maxLineBytes: FrameLimits.maxReplyLineBytes, unterminatedLastLine: .drop)
                    try channel.pipeline.syncOperations.addHandlers([ByteToMessageHandler(lines), LineCollector(continuation)])
                }
            }
            .connect(unixDomainSocketPath: path).get()
        do {
            let result = try await body(RawLineSession(channel: channel, lines: lines))
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    /// Writes `line` and a newline.
    public func send(_ line: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: line + "\n"))
    }

    /// Shuts down the write side, as `printf … | socat` does at the end of its input.
    public func finishWriting() {
        channel.close(mode: .output, promise: nil)
    }

    /// The next message the daemon writes; `nil` once it closed the connection.
    public func next() async throws -> ServerMessage? {
        guard let line = await lines.next() else { return nil }
        return try ServerMessage.decode(line: line.readableBytesView)
    }

    /// The next line the daemon writes, as it wrote it; `nil` once it closed the connection.
    public func nextLine() async -> String? {
        guard let line = await lines.next() else { return nil }
        return String(buffer: line)
    }

    /// Writes `line` and returns the next reply.
    public func exchange(_ line: String) async throws -> Reply? {
        try await send(line)
        while let message = try await next() {
            if case .reply(let reply) = message { return reply }
        }
        return nil
    }
}

/// Hands each line to the session's stream, and ends the stream when the connection closes.
private final class LineCollector: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncStream<ByteBuffer>.Continuation

    init(_ continuation: AsyncStream<ByteBuffer>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        continuation.yield(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        continuation.finish()
    }
}
