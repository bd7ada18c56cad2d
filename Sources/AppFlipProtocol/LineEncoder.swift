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
