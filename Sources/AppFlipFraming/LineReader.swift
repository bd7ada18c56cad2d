package import NIOCore

/// Feeds a connection's reads through a ``LineFrameDecoder`` and hands out each whole line, keeping what
/// follows the last newline for the next read.
///
/// This is `NIOSingleStepByteToMessageProcessor`'s job for the one decoder, hand-written because its generic
/// machinery (its buffer's bookkeeping, the reclaim heuristics, the checks after each line) cost the daemon
/// more per line than the split itself (`Benchmarks/instructions-per-handoff` shows it). What it keeps between
/// reads is less than a line's limit.
package struct LineReader {
    private var decoder: LineFrameDecoder
    /// The start of a line that has no newline yet; `nil` when the last read ended on one.
    private var partial: ByteBuffer?

    package init(_ decoder: LineFrameDecoder) {
        self.decoder = decoder
    }

    /// Calls `body` with each line `bytes` completes, in order.
    /// - Throws: ``LineTooLongError`` once a line passes the limit; what follows cannot be framed.
    package mutating func read(_ bytes: ByteBuffer, _ body: (ByteBuffer) throws -> Void) throws {
        var input: ByteBuffer
        if var partial = self.partial {
            self.partial = nil
            partial.writeImmutableBuffer(bytes)
            input = partial
        } else {
            input = bytes
        }
        while let line = try decoder.decode(buffer: &input) {
            try body(line)
        }
        guard input.readableBytes > 0 else { return }
        // Moved to the front once per line that spans reads, so that a line arriving byte by byte is
        // not moved again with each byte.
        if input.readerIndex > 0 { input.discardReadBytes() }
        partial = input
    }

    /// Calls `body` with what the stream left after its last newline, if the decoder delivers it.
    package mutating func finish(_ body: (ByteBuffer) throws -> Void) throws {
        guard var input = partial else { return }
        partial = nil
        while let line = try decoder.decodeLast(buffer: &input, seenEOF: true) {
            try body(line)
        }
    }
}
