import NIOCore

/// Splits a byte stream into newline-terminated lines (without the `\n`), refusing a line over the limit.
///
/// Over the limit it throws ``LineTooLongError`` as soon as the limit is passed, without buffering the rest
/// of the line, so that a hostile peer cannot make the daemon hold more than `maxLineBytes`. It runs
/// inside ``ConnectionHandler`` through `NIOSingleStepByteToMessageProcessor`: a pipeline step per line
/// cost more than the split itself.
struct LineFrameDecoder: NIOSingleStepByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    let maxLineBytes: Int
    /// How far the buffer was already searched for a newline, so that a long line is scanned once.
    private var searched = 0

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        let view = buffer.readableBytesView
        guard let newline = view.dropFirst(searched).firstIndex(of: UInt8(ascii: "\n")) else {
            searched = view.count
            guard view.count <= maxLineBytes else { throw LineTooLongError(limit: maxLineBytes) }
            return nil
        }
        let length = newline - view.startIndex
        guard length <= maxLineBytes else { throw LineTooLongError(limit: maxLineBytes) }
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        searched = 0
        return line
    }

    mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> ByteBuffer? {
        if let line = try decode(buffer: &buffer) { return line }
        // A last line without its newline is still a line.
        guard buffer.readableBytes > 0 else { return nil }
        searched = 0
        return buffer.readSlice(length: buffer.readableBytes)!
    }
}

/// A line passed the limit; the connection gets `line_too_long` and is closed.
struct LineTooLongError: Error {
    var limit: Int
}
