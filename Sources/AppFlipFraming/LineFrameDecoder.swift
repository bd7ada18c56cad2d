import Glibc
package import NIOCore

/// Splits a byte stream into newline-terminated lines (without the `\n`), refusing a line over the limit:
/// protocol v1's one framing, read by the daemon, the client and the test helper alike.
///
/// It is a module of its own, on NIOCore alone, because both ends read lines and neither may depend on the
/// other; `AppFlipProtocol` keeps no NIO so that a peer can speak the protocol without it, and the daemon
/// and the client gain no dependency they did not already have.
///
/// Over the limit it throws ``LineTooLongError`` as soon as the limit is passed, without buffering the rest
/// of the line, so that a hostile peer cannot make the reader hold more than `maxLineBytes`. It runs
/// through a ``LineReader`` inside a connection's own handler (a pipeline step per line cost the daemon
/// more than the split itself), or in a `ByteToMessageHandler`.
package struct LineFrameDecoder: NIOSingleStepByteToMessageDecoder {
    package typealias InboundOut = ByteBuffer

    /// What becomes of the bytes after the last newline when the stream ends.
    package enum UnterminatedLastLine: Sendable {
        /// They are a line: the daemon answers `printf '{…}' | socat`, whose input need not end in a newline.
        case deliver
        /// They are dropped: a reply cut short by the daemon's close cannot be a whole message.
        case drop
    }

    package let maxLineBytes: Int
    package let unterminatedLastLine: UnterminatedLastLine
    /// How far the buffer was already searched for a newline, so that a long line is scanned once.
    private var searched = 0

    package init(maxLineBytes: Int, unterminatedLastLine: UnterminatedLastLine) {
        self.maxLineBytes = maxLineBytes
        self.unterminatedLastLine = unterminatedLastLine
    }

    package mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        // memchr, not `readableBytesView.firstIndex(of:)`: that walked the line byte by byte through the
        // view's indices, as Benchmarks/instructions-per-handoff shows.
        let searched = self.searched
        let newline = buffer.withUnsafeReadableBytes { bytes -> Int? in
            guard searched < bytes.count, let found = memchr(bytes.baseAddress! + searched, 0x0A, bytes.count - searched) else { return nil }
            return UnsafeRawPointer(found) - bytes.baseAddress!
        }
        guard let length = newline else {
            self.searched = buffer.readableBytes
            guard buffer.readableBytes <= maxLineBytes else { throw LineTooLongError(limit: maxLineBytes) }
            return nil
        }
        guard length <= maxLineBytes else { throw LineTooLongError(limit: maxLineBytes) }
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        self.searched = 0
        return line
    }

    package mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> ByteBuffer? {
        if let line = try decode(buffer: &buffer) { return line }
        guard buffer.readableBytes > 0 else { return nil }
        searched = 0
        let rest = buffer.readSlice(length: buffer.readableBytes)!
        switch unterminatedLastLine {
        case .deliver: return rest
        case .drop: return nil
        }
    }
}

/// A line passed the limit; the daemon answers `line_too_long` and closes, the client closes.
package struct LineTooLongError: Error, Sendable {
    package var limit: Int
}
