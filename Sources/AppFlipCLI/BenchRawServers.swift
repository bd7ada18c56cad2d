import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The baselines `appflip bench` measures the daemon against, on the same machine in the same run: a raw
/// Unix-socket line echo, and a raw two-hop relay that forwards each line over one shared upstream
/// connection to the echo and back — the daemon's live-app path without JSON, routing or bookkeeping.
enum BenchRawServers {
    /// Echoes every line back.
    static func echo(at path: String, group: any EventLoopGroup) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([ByteToMessageHandler(BenchLineDecoder()), EchoHandler()])
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
    }

    /// Relays each client line to the upstream echo as `<client> <line>`, and each upstream line back to
    /// the client it names.
    static func relay(at path: String, upstream upstreamPath: String, group: any EventLoopGroup) async throws -> any Channel {
        let clients = NIOLockedValueBox<[UInt64: any Channel]>([:])
        let nextClient = NIOLockedValueBox<UInt64>(0)
        let upstream = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([ByteToMessageHandler(BenchLineDecoder()), RelayUpstreamHandler(clients: clients)])
                }
            }
            .connect(unixDomainSocketPath: upstreamPath).get()
        return try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                let id = nextClient.withLockedValue { value in
                    value += 1
                    return value
                }
                clients.withLockedValue { $0[id] = channel }
                channel.closeFuture.whenComplete { _ in _ = clients.withLockedValue { $0.removeValue(forKey: id) } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(BenchLineDecoder()), RelayClientHandler(id: id, upstream: upstream),
                    ])
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
    }
}

/// Splits at newlines, keeping the newline, so that relays and echoes forward lines untouched.
struct BenchLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(buffer.readSlice(length: newline - buffer.readerIndex + 1)!))
        return .continue
    }
}

private final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.writeAndFlush(data, promise: nil)
    }
}

private final class RelayClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let id: UInt64
    let upstream: any Channel

    init(id: UInt64, upstream: any Channel) {
        self.id = id
        self.upstream = upstream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        var tagged = context.channel.allocator.buffer(capacity: line.readableBytes + 21)
        tagged.writeString("\(id) ")
        tagged.writeImmutableBuffer(line)
        upstream.writeAndFlush(tagged, promise: nil)
    }
}

private final class RelayUpstreamHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let clients: NIOLockedValueBox<[UInt64: any Channel]>

    init(clients: NIOLockedValueBox<[UInt64: any Channel]>) {
        self.clients = clients
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var line = unwrapInboundIn(data)
        guard let space = line.readableBytesView.firstIndex(of: UInt8(ascii: " ")),
              let id = UInt64(line.readString(length: space - line.readerIndex) ?? "")
        else { return }
        line.moveReaderIndex(forwardBy: 1)
        clients.withLockedValue { $0[id] }?.writeAndFlush(line, promise: nil)
    }
}
