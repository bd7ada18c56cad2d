import NIOCore
import NIOPosix

/// A TCP proxy on 127.0.0.1 that holds every chunk a client sends for `delay` before passing it on: each
/// request–response exchange through it takes `delay` longer, as if the server were that far away. It stands in
/// for a partner's servers off loopback when `appflip-bench --audit` measures the audit.
final class BenchLatencyProxy: Sendable {
    /// The port clients connect to.
    let port: Int
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    /// Listens on an ephemeral port of 127.0.0.1 and forwards each connection to `upstreamPort` there.
    static func start(forwardingTo upstreamPort: Int, delay: TimeAmount, group: any EventLoopGroup) async throws -> BenchLatencyProxy {
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .channelInitializer { outbound in
                        outbound.pipeline.addHandler(Relay(peer: inbound, delay: .zero))
                    }
                    .connect(host: "127.0.0.1", port: upstreamPort)
                    .flatMap { outbound in
                        inbound.pipeline.addHandler(Relay(peer: outbound, delay: delay))
                    }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return BenchLatencyProxy(port: channel.localAddress?.port ?? 0, channel: channel)
    }

    /// Stops listening; connections still open end with their peers.
    func stop() async throws {
        try await channel.close()
    }

    /// Writes what one side reads to the other, each chunk `delay` after it arrived and in the order it
    /// arrived; an end of file or error on either side closes both.
    private final class Relay: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer

        private let peer: any Channel
        private let delay: TimeAmount
        /// Chunks waiting for their time, oldest first; one timer for the oldest keeps their order.
        private var queue: [(due: NIODeadline, chunk: ByteBuffer)] = []
        private var timer: Scheduled<Void>?

        init(peer: any Channel, delay: TimeAmount) {
            self.peer = peer
            self.delay = delay
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let chunk = unwrapInboundIn(data)
            guard delay > .zero else {
                peer.writeAndFlush(chunk, promise: nil)
                return
            }
            queue.append((NIODeadline.now() + delay, chunk))
            if timer == nil { arm(on: context.eventLoop) }
        }

        private func arm(on eventLoop: any EventLoop) {
            guard let due = queue.first?.due else { return }
            timer = eventLoop.scheduleTask(deadline: due) { [self] in
                timer = nil
                let now = NIODeadline.now()
                while let first = queue.first, first.due <= now {
                    queue.removeFirst()
                    peer.writeAndFlush(first.chunk, promise: nil)
                }
                arm(on: eventLoop)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            timer?.cancel()
            peer.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
