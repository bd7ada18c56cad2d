import FoundationEssentials

/// Encodes messages one after another into storage it keeps: a connection that writes a line per handoff
/// allocates no array per line.
///
/// The bytes are those of `encodedLine()`, followed by the newline that ends a line on the wire.
public struct LineEncoder: ~Copyable {
    private var writer = JSONLineWriter()
    /// For the messages that are not hot.
    private let encoder = JSONEncoder.protocolEncoder

    /// Creates an encoder with empty storage; it grows to the longest line written.
    public init() {}

    /// Calls `body` with `message` as one line, newline included. The bytes are valid only inside `body`.
    public mutating func withLine(of message: ServerMessage, _ body: (UnsafeRawBufferPointer) -> Void) {
        writer.reset()
        writer.write(message, otherwiseUsing: encoder)
        writer.newline()
        body(writer.bytes)
    }

    /// Calls `body` with `request` as one line, newline included. The bytes are valid only inside `body`.
    public mutating func withLine(of request: Request, _ body: (UnsafeRawBufferPointer) -> Void) {
        writer.reset()
        writer.write(request, otherwiseUsing: encoder)
        writer.newline()
        body(writer.bytes)
    }
}

/// Framing limits shared by the daemon and the client.
public enum FrameLimits {
    /// The longest line, newline excluded, that either side accepts by default: 64 KiB.
    public static let defaultMaxLineBytes = 65_536
    /// The longest line a client reads from the daemon. Replies can be long (`apps` on a big registry), so
    /// this only stops a runaway peer.
    package static let maxReplyLineBytes = 64 << 20
}
