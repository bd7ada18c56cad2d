import AppFlipProtocol
import NIOCore

/// The lines one connection is about to write, encoded straight into one buffer.
///
/// The connection's replies, the pushes to a live app and the events to a watcher all go through it. While
/// the connection is reading, every line waits for the end of that `channelRead`, so that the replies to
/// one read leave in one write. Otherwise a reply leaves at once, and a push waits for the end of the event loop
/// turn, so that the pushes for every client read in one turn reach the live app in one write. Everything
/// here runs on the connection's event loop.
final class OutboundLines {
    let channel: any Channel
    private var encoder = LineEncoder()
    private var pending: ByteBuffer
    private var isReading = false
    private var flushQueued = false
    private static let keptCapacity = 64 << 10
    /// Bytes of lines waiting for the end of the turn past which the connection counts as not writable, as
    /// past the channel's high water mark: pushes handed over from other event loops all land before the
    /// flush, and must not grow the buffer without bound either.
    private static let maxUnflushed = 64 << 10

    init(channel: any Channel) {
        self.channel = channel
        self.pending = channel.allocator.buffer(capacity: 1024)
    }

    /// Whether a push or an event may be added: the channel is under its high water mark, and so are the
    /// lines waiting for the end of this turn. A live app's handoffs fail fast otherwise, and a watcher
    /// misses events.
    var isWritable: Bool {
        channel.isWritable && pending.readableBytes < Self.maxUnflushed
    }

    /// Sends a reply: now, or with the rest of the current read's replies.
    func send(_ message: ServerMessage) {
        channel.eventLoop.assertInEventLoop()
        encoder.withLine(of: message) { pending.writeBytes($0) }
        if !isReading { flush() }
    }

    /// Sends a push: with whatever else this event loop turn sends down the connection.
    func sendAtEndOfTurn(_ message: ServerMessage) {
        channel.eventLoop.assertInEventLoop()
        encoder.withLine(of: message) { pending.writeBytes($0) }
        guard !isReading, !flushQueued else { return }
        flushQueued = true
        channel.eventLoop.execute { [self] in
            flushQueued = false
            flush()
        }
    }

    /// Holds the flush until ``endReading()``: the replies to one read leave in one write.
    func beginReading() {
        isReading = true
    }

    func endReading() {
        isReading = false
        flush()
    }

    /// Writes whatever is pending now.
    func flush() {
        guard pending.readableBytes > 0 else { return }
        channel.writeAndFlush(pending, promise: nil)
        // Written at once (the usual case), the storage is ours again and `clear` keeps it; still queued in
        // NIO, `clear` leaves it to NIO and the next line starts a fresh buffer. A big one-off (`apps` on a
        // large registry) is not kept for the life of the connection.
        if pending.capacity > Self.keptCapacity {
            pending = channel.allocator.buffer(capacity: 1024)
        } else {
            pending.clear()
        }
    }

    /// Writes what is pending, then `last` (an error about the connection itself), and closes the
    /// connection once they are written.
    func close(after last: ServerMessage? = nil) {
        if let last { encoder.withLine(of: last) { pending.writeBytes($0) } }
        let channel = self.channel
        channel.writeAndFlush(pending).whenComplete { _ in channel.close(promise: nil) }
        pending.clear()
    }
}
