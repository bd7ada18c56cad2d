import NIOCore

/// Splits a byte stream into newline-terminated lines (without the `\n`), refusing a line over the limit.
///
/// Over the limit it throws ``LineTooLongError`` as soon as the limit is passed, without buffering the rest
/// of the line, so that a hostile peer cannot make the daemon hold more than `maxLineBytes`.
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    let maxLineBytes: Int
    /// How far the buffer was already searched for a newline, so that a long line is scanned once.
    private var searched = 0

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        if let newline = view.dropFirst(searched).firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            guard length <= maxLineBytes else { throw LineTooLongError(limit: maxLineBytes) }
            let line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            searched = 0
            context.fireChannelRead(Self.wrapInboundOut(line))
            return .continue
        }
        searched = view.count
        guard view.count <= maxLineBytes else { throw LineTooLongError(limit: maxLineBytes) }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A last line without its newline is still a line.
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0 {
            context.fireChannelRead(Self.wrapInboundOut(buffer.readSlice(length: buffer.readableBytes)!))
        }
        return .needMoreData
    }
}

/// A line passed the limit; the connection gets `line_too_long` and is closed.
struct LineTooLongError: Error {
    var limit: Int
}
