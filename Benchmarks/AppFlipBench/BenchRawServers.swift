import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The baselines `appflip-bench` measures the daemon against, on the same machine in the same run: a raw
/// Unix-socket line echo, and a raw two-hop relay that forwards each line over one shared upstream
/// connection to the echo and back — the daemon's live-app path without JSON, routing or bookkeeping.
enum BenchRawServers {
    /// Echoes every line back.
    static func echo(at path: String, group: any EventLoopGroup) async throws -> any Channel {
        try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([ByteToMessageHandler(BenchFraming.decoder()), EchoHandler()])
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
                    try channel.pipeline.syncOperations.addHandlers([
                        ByteToMessageHandler(BenchFraming.decoder()), RelayUpstreamHandler(clients: clients),
                    ])
                }
            }
            .connect(unixDomainSocketPath: upstreamPath).get()
        let upstreamWriter = RelayUpstream(channel: upstream)
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
                        ByteToMessageHandler(BenchFraming.decoder()), RelayClientHandler(id: id, upstream: upstreamWriter),
                    ])
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
    }
}

/// Echoes with the I/O strategy of the daemon's connections and of a live app: the replies to one read
/// leave in one write.
private final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.write(data, promise: nil)
        context.write(wrapOutboundOut(BenchFraming.newline), promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }
}

/// The relay's one upstream connection, written like the daemon writes to a live app: every line
/// written in one event loop turn leaves in one write.
private final class RelayUpstream: @unchecked Sendable {
    let channel: any Channel
    /// Touched only on the upstream channel's event loop.
    private var flushQueued = false

    init(channel: any Channel) {
        self.channel = channel
    }

    func write(_ line: ByteBuffer) {
        guard channel.eventLoop.inEventLoop else {
            channel.eventLoop.execute { self.write(line) }
            return
        }
        channel.write(line, promise: nil)
        if !flushQueued {
            flushQueued = true
            channel.eventLoop.execute {
                self.flushQueued = false
                self.channel.flush()
            }
        }
    }
}

private final class RelayClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let id: UInt64
    let upstream: RelayUpstream

    init(id: UInt64, upstream: RelayUpstream) {
        self.id = id
        self.upstream = upstream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        var tagged = context.channel.allocator.buffer(capacity: line.readableBytes + 22)
        tagged.writeString("\(id) ")
        tagged.writeImmutableBuffer(line)
        tagged.writeInteger(UInt8(ascii: "\n"))
        upstream.write(tagged)
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
        guard let client = clients.withLockedValue({ $0[id] }) else { return }
        client.write(line, promise: nil)
        client.writeAndFlush(BenchFraming.newline, promise: nil)
    }
}
