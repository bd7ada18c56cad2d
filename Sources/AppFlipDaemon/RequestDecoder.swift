import AppFlipProtocol
import FoundationEssentials
import NIOCore

/// Decodes each line into a request, or into the failure the connection must answer.
final class RequestDecoder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = Result<Request, RequestFailure>

    private let decoder = JSONDecoder()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        let decoded = line.withUnsafeReadableBytes { Request.decode(line: $0, using: decoder) }
        context.fireChannelRead(wrapInboundOut(decoded))
    }
}
