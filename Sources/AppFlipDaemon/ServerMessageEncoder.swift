import AppFlipProtocol
import NIOCore

/// Writes each ``ServerMessage`` as one line of JSON.
struct ServerMessageEncoder: MessageToByteEncoder {
    typealias OutboundIn = ServerMessage

    func encode(data: ServerMessage, out: inout ByteBuffer) throws {
        out.writeBytes(data.encodedLine())
        out.writeInteger(UInt8(ascii: "\n"))
    }
}
