import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Splits at newlines, keeping the newline, so that relays and echoes forward lines untouched.
struct BenchLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
        context.fireChannelRead(Self.wrapInboundOut(buffer.readSlice(length: newline - buffer.readerIndex + 1)!))
        return .continue
    }
}
