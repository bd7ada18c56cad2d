import AppFlipFraming
import AppFlipProtocol
import NIOCore

/// The baselines and the load clients frame lines with protocol v1's own decoder, as the daemon does, so
/// that every side of a measurement splits its input the same way; a line leaves without its newline, which
/// the echo and the relay write back after it.
enum BenchFraming {
    static func decoder() -> LineFrameDecoder {
        LineFrameDecoder(maxLineBytes: FrameLimits.defaultMaxLineBytes, unterminatedLastLine: .drop)
    }

    static let newline = ByteBuffer(integer: UInt8(ascii: "\n"))
}
