import AppFlipProtocol
import NIOCore
import NIOPosix

/// A bare line-oriented connection that says nothing by itself (no `hello`, no ids), for protocol tests.
public final class RawLineSession {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    init(inbound: NIOAsyncChannelInboundStream<ByteBuffer>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
    }

    /// Connects to `path`, runs `body`, and closes the connection.
    public static func with<Result>(socket path: String, _ body: (RawLineSession) async throws -> Result) async throws -> Result {
        // NIO's async connect makes the wrapper once the connection exists, and lets none of the daemon's
        // lines (a refusal is written at once) slip past before it.
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: path) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(NewlineSplitter()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(RawLineSession(inbound: inbound, outbound: outbound))
        }
    }

    /// Writes `line` and a newline.
    public func send(_ line: String) async throws {
        try await outbound.write(ByteBuffer(string: line + "\n"))
    }

    /// Shuts down the write side, as `printf … | socat` does at the end of its input.
    public func finishWriting() {
        outbound.finish()
    }

    /// The next message the daemon writes; `nil` once it closed the connection.
    public func next() async throws -> ServerMessage? {
        guard let line = try await inbound.next() else { return nil }
        return try ServerMessage.decode(line: line.readableBytesView)
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

/// Splits bytes at newlines.
private struct NewlineSplitter: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
        let line = buffer.readSlice(length: newline - buffer.readerIndex)!
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(Self.wrapInboundOut(line))
        return .continue
    }
}
