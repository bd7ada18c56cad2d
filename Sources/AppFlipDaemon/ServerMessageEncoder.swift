import AppFlipProtocol
import FoundationEssentials
import NIOCore

/// Writes each ``ServerMessage`` as one line of JSON.
struct ServerMessageEncoder: MessageToByteEncoder {
    typealias OutboundIn = ServerMessage

    func encode(data: ServerMessage, out: inout ByteBuffer) throws {
        out.writeBytes(data.encodedLine())
        out.writeInteger(UInt8(ascii: "\n"))
    }
}

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
