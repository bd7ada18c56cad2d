import AppFlipProtocol
import NIOCore

/// The lines one connection is about to write, encoded straight into one buffer.
///
/// The connection's replies, the pushes to a live app and the events to a watcher all go through it. While
/// the connection is reading, every line waits for the end of that `channelRead`, so that the replies to
/// one read leave in one write. Otherwise a reply leaves at once, and a push waits for the end of the event loop
/// turn, so that the pushes for every client read in one turn reach the live app in one write. The
/// acknowledgement of a live app's `answer`, which nothing waits on, leaves with the next line written to the
/// app or within ``acknowledgementDelay``: it costs the app no wake-up of its own. Everything here runs on the
/// connection's event loop.
final class OutboundLines {
    /// The longest an acknowledgement waits for a line to leave with.
    static let acknowledgementDelay = TimeAmount.milliseconds(5)

    let channel: any Channel
    private var encoder = LineEncoder()
    private var pending: ByteBuffer
    private var isReading = false
    private var flushQueued = false
    /// Everything pending may wait: acknowledgements only.
    private var onlyAcknowledgementsPending = false
    /// Sends the waiting acknowledgements at the latest.
    private var acknowledgementTimer: Scheduled<Void>?
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
        onlyAcknowledgementsPending = false
        if !isReading { flush() }
    }

    /// Sends an acknowledgement that nothing waits on: with the next line written to the connection, or
    /// within ``acknowledgementDelay``.
    func sendAcknowledgement(_ message: ServerMessage) {
        channel.eventLoop.assertInEventLoop()
        if pending.readableBytes == 0 { onlyAcknowledgementsPending = true }
        encoder.withLine(of: message) { pending.writeBytes($0) }
        guard onlyAcknowledgementsPending, acknowledgementTimer == nil else { return }
        // On the event loop, asserted above: no check again on the hot path.
        acknowledgementTimer = channel.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.acknowledgementDelay) { [self] in
            acknowledgementTimer = nil
            if onlyAcknowledgementsPending { flush() }
        }
    }

    /// Sends a push: with whatever else this event loop turn sends down the connection.
    func sendAtEndOfTurn(_ message: ServerMessage) {
        channel.eventLoop.assertInEventLoop()
        encoder.withLine(of: message) { pending.writeBytes($0) }
        onlyAcknowledgementsPending = false
        guard !isReading, !flushQueued else { return }
        flushQueued = true
        channel.eventLoop.assumeIsolatedUnsafeUnchecked().execute { [self] in
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
        if !onlyAcknowledgementsPending { flush() }
    }

    /// Writes whatever is pending now.
    ///
    /// An armed acknowledgement timer stays armed: cancelling it here and arming another for the next
    /// answer cost a scheduled task per handoff (7,000 instructions, `scripts/instructions-per-handoff`).
    /// Firing with no acknowledgement waiting, it does nothing; one that waits leaves within the delay.
    func flush() {
        onlyAcknowledgementsPending = false
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
        acknowledgementTimer?.cancel()
        acknowledgementTimer = nil
        onlyAcknowledgementsPending = false
        if let last { encoder.withLine(of: last) { pending.writeBytes($0) } }
        let channel = self.channel
        channel.writeAndFlush(pending).whenComplete { _ in channel.close(promise: nil) }
        pending.clear()
    }
}
