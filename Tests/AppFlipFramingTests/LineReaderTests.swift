import AppFlipFraming
import NIOCore
import Testing

/// The reader a connection handler feeds its reads to: the same lines however the bytes are split across
/// reads, what is kept between reads bounded by the limit, and the stream's unterminated end.
@Suite struct LineReaderTests {
    static func reader(_ unterminatedLastLine: LineFrameDecoder.UnterminatedLastLine = .deliver, limit: Int = 16) -> LineReader {
        LineReader(LineFrameDecoder(maxLineBytes: limit, unterminatedLastLine: unterminatedLastLine))
    }

    /// Feeds `chunks` as reads, then the end of the stream; returns every line.
    static func lines(of chunks: [String], _ unterminatedLastLine: LineFrameDecoder.UnterminatedLastLine = .deliver) throws -> [String] {
        var reader = reader(unterminatedLastLine)
        var lines: [String] = []
        for chunk in chunks {
            try reader.read(ByteBuffer(string: chunk)) { lines.append(String(buffer: $0)) }
        }
        try reader.finish { lines.append(String(buffer: $0)) }
        return lines
    }

    @Test func everySplitOfTheStreamGivesTheSameLines() throws {
        let stream = "{\"id\":1}\n\nab\ncdé🙂\r\nlast"
        let whole = try Self.lines(of: [stream])
        #expect(whole == ["{\"id\":1}", "", "ab", "cdé🙂\r", "last"])
        let bytes = Array(stream.utf8)
        for first in 0...bytes.count {
            for second in first...bytes.count {
                let chunks = [bytes[..<first], bytes[first..<second], bytes[second...]].map { String(decoding: $0, as: UTF8.self) }
                // A split inside a multi-byte character is not a string; feed the bytes themselves.
                var reader = Self.reader()
                var lines: [String] = []
                for range in [0..<first, first..<second, second..<bytes.count] {
                    try reader.read(ByteBuffer(bytes: bytes[range])) { lines.append(String(buffer: $0)) }
                }
                try reader.finish { lines.append(String(buffer: $0)) }
                #expect(lines == whole, "split at \(first) and \(second): \(chunks)")
            }
        }
    }

    @Test func byteByByteGivesTheSameLines() throws {
        let stream = "one\ntwo\n\nthree"
        #expect(try Self.lines(of: stream.map(String.init)) == ["one", "two", "", "three"])
    }

    @Test func anUnterminatedEndIsDroppedWhenTheDecoderSaysSo() throws {
        #expect(try Self.lines(of: ["a\nb", "c"], .drop) == ["a"])
        #expect(try Self.lines(of: ["a\n"], .deliver) == ["a"], "a stream ending on a newline has no last line to deliver")
        #expect(try Self.lines(of: [], .deliver).isEmpty)
    }

    /// A line over the limit fails as the limit passes, however slowly it comes: what waits for a newline
    /// never grows past the limit.
    @Test func aLineOverTheLimitFailsAsItPassesTheLimit() throws {
        var reader = Self.reader(limit: 8)
        var lines: [String] = []
        try reader.read(ByteBuffer(string: "ok\n1234")) { lines.append(String(buffer: $0)) }
        try reader.read(ByteBuffer(string: "5678")) { lines.append(String(buffer: $0)) }
        #expect(throws: LineTooLongError.self) {
            try reader.read(ByteBuffer(string: "9")) { lines.append(String(buffer: $0)) }
        }
        #expect(lines == ["ok"])
    }

    @Test func aLineOfTheLimitSpreadOverReadsPasses() throws {
        var reader = Self.reader(limit: 8)
        var lines: [String] = []
        for chunk in ["1234", "5678", "\nnext\n"] {
            try reader.read(ByteBuffer(string: chunk)) { lines.append(String(buffer: $0)) }
        }
        #expect(lines == ["12345678", "next"])
    }
}
