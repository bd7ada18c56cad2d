import AppFlipFraming
import NIOCore
import NIOTestUtils
import Testing

@Suite struct LineFrameDecoderTests {
    static func decoder(_ unterminatedLastLine: LineFrameDecoder.UnterminatedLastLine = .drop) -> LineFrameDecoder {
        LineFrameDecoder(maxLineBytes: 8, unterminatedLastLine: unterminatedLastLine)
    }

    /// Whole, byte by byte, or many at once: the same lines, and nothing left over.
    @Test func splitsTheSameLinesHoweverTheBytesArrive() throws {
        try ByteToMessageDecoderVerifier.verifyDecoder(
            stringInputOutputPairs: [
                ("{\"id\":1}\n", [ByteBuffer(string: "{\"id\":1}")]),
                ("\n", [ByteBuffer()]),
                ("a\nbc\n\n", [ByteBuffer(string: "a"), ByteBuffer(string: "bc"), ByteBuffer()]),
                ("é🙂\r\n", [ByteBuffer(string: "é🙂\r")]),
            ],
            decoderFactory: { Self.decoder() }
        )
    }

    @Test func aLineOfExactlyTheLimitPasses() throws {
        var decoder = Self.decoder()
        var buffer = ByteBuffer(string: "12345678\n")
        #expect(try decoder.decode(buffer: &buffer) == ByteBuffer(string: "12345678"))
    }

    @Test func aLineOverTheLimitIsRefusedBeforeItsNewlineArrives() {
        var decoder = Self.decoder()
        var buffer = ByteBuffer(string: "123456789")
        #expect(throws: LineTooLongError.self) { try decoder.decode(buffer: &buffer) }
    }

    @Test func aLineOverTheLimitIsRefusedWhenItArrivesWhole() {
        var decoder = Self.decoder()
        var buffer = ByteBuffer(string: "123456789\nok\n")
        #expect(throws: LineTooLongError.self) { try decoder.decode(buffer: &buffer) }
    }

    @Test func theBytesAfterTheLastNewlineAreALineOnlyWhenAskedFor() throws {
        var delivering = Self.decoder(.deliver)
        var buffer = ByteBuffer(string: "a\nb")
        #expect(try delivering.decodeLast(buffer: &buffer, seenEOF: true) == ByteBuffer(string: "a"))
        #expect(try delivering.decodeLast(buffer: &buffer, seenEOF: true) == ByteBuffer(string: "b"))
        #expect(try delivering.decodeLast(buffer: &buffer, seenEOF: true) == nil)

        var dropping = Self.decoder(.drop)
        buffer = ByteBuffer(string: "a\nb")
        #expect(try dropping.decodeLast(buffer: &buffer, seenEOF: true) == ByteBuffer(string: "a"))
        #expect(try dropping.decodeLast(buffer: &buffer, seenEOF: true) == nil)
        #expect(buffer.readableBytes == 0)
    }
}
