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
    /// Every mutable part in one value, changed by one call per line: each access to a class's stored
    /// property costs a runtime exclusivity check, so one field checks once where a field apiece checked
    /// for each (`Benchmarks/instructions-per-handoff` shows it).
    private var pending: PendingLines
    /// Sends the waiting acknowledgements at the latest; only read or assigned.
    private var acknowledgementTimer: Scheduled<Void>?
    private static let keptCapacity = 64 << 10
    /// Bytes of lines waiting for the end of the turn past which the connection counts as not writable, as
    /// past the channel's high water mark: pushes handed over from other event loops all land before the
    /// flush, and must not grow the buffer without bound either.
    private static let maxUnflushed = 64 << 10

    init(channel: any Channel) {
        self.channel = channel
        self.pending = PendingLines(buffer: channel.allocator.buffer(capacity: 1024))
    }

    /// Whether a push or an event may be added: the channel is under its high water mark, and so are the
    /// lines waiting for the end of this turn. A live app's handoffs fail fast otherwise, and a watcher
    /// misses events.
    var isWritable: Bool {
        channel.isWritable && pending.buffer.readableBytes < Self.maxUnflushed
    }

    /// Sends a reply: now, or with the rest of the current read's replies.
    func send(_ message: ServerMessage) {
        channel.eventLoop.assertInEventLoop()
        if pending.append(message, as: .now) { flush() }
    }

    /// Sends an acknowledgement that nothing waits on: with the next line written to the connection, or
    /// within ``acknowledgementDelay``.
    func sendAcknowledgement(_ message: ServerMessage) {
        channel.eventLoop.assertInEventLoop()
        guard pending.append(message, as: .acknowledgement), acknowledgementTimer == nil else { return }
        // On the event loop, asserted above: no check again on the hot path.
        acknowledgementTimer = channel.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: Self.acknowledgementDelay) { [self] in
            acknowledgementTimer = nil
            if pending.onlyAcknowledgements { flush() }
        }
    }

    /// Sends a push: with whatever else this event loop turn sends down the connection.
    func sendAtEndOfTurn(_ message: ServerMessage) {
        channel.eventLoop.assertInEventLoop()
        guard pending.append(message, as: .endOfTurn) else { return }
        channel.eventLoop.assumeIsolatedUnsafeUnchecked().execute { [self] in
            pending.flushQueued = false
            flush()
        }
    }

    /// Writes through the connection handler's `context` from now on, until ``detach()``: a write then
    /// starts at the handler rather than at the pipeline's tail, 1,400 fewer instructions per live-app
    /// handoff (`Benchmarks/instructions-per-handoff`). The context holds the handler, which holds these lines:
    /// `handlerRemoved` detaches, and so breaks the cycle.
    func attach(_ context: ChannelHandlerContext) {
        pending.context = context
    }

    func detach() {
        pending.context = nil
    }

    /// Holds the flush until ``endReading()``: the replies to one read leave in one write.
    func beginReading() {
        pending.isReading = true
    }

    func endReading() {
        if pending.endReading() { flush() }
    }

    /// Writes whatever is pending now.
    ///
    /// An armed acknowledgement timer stays armed: cancelling it here and arming another for the next
    /// answer cost a scheduled task per handoff (`Benchmarks/instructions-per-handoff` shows it).
    /// Firing with no acknowledgement waiting, it does nothing; one that waits leaves within the delay.
    func flush() {
        guard let (lines, context) = pending.takeForWrite() else { return }
        // Consumed: our copy must be gone before `reclaim`, or `clear` finds the storage shared and
        // allocates anew.
        if let context {
            context.writeAndFlush(NIOAny(consume lines), promise: nil)
        } else {
            channel.writeAndFlush(consume lines, promise: nil)
        }
        pending.reclaim(keepingAtMost: Self.keptCapacity, allocator: channel.allocator)
    }

    /// Writes what is pending, then `last` (an error about the connection itself), and closes the
    /// connection once they are written.
    func close(after last: ServerMessage? = nil) {
        acknowledgementTimer?.cancel()
        acknowledgementTimer = nil
        if let last { _ = pending.append(last, as: .now) }
        let lines = pending.takeForWrite()?.lines ?? channel.allocator.buffer(capacity: 0)
        let channel = self.channel
        channel.writeAndFlush(lines).whenComplete { _ in channel.close(promise: nil) }
        pending.reclaim(keepingAtMost: Self.keptCapacity, allocator: channel.allocator)
    }
}

/// The buffer of lines waiting to be written, and what decides when they leave.
private struct PendingLines: ~Copyable {
    /// When a line leaves.
    enum Timing {
        /// A reply: now, or at the end of the current read.
        case now
        /// A push: at the end of the event loop turn.
        case endOfTurn
        /// An acknowledgement: with the next line, or at the acknowledgement timer.
        case acknowledgement
    }

    private var encoder = LineEncoder()
    var buffer: ByteBuffer
    /// Inside a `channelRead`: replies wait for its end.
    var isReading = false
    /// A flush at the end of this event loop turn is queued.
    var flushQueued = false
    /// Everything pending may wait: acknowledgements only.
    var onlyAcknowledgements = false
    /// The connection handler's context while it is in the pipeline.
    var context: ChannelHandlerContext?

    init(buffer: ByteBuffer) {
        self.buffer = buffer
    }

    /// Appends `message` as one line.
    /// - Returns: for a reply, whether to flush now; for a push, whether to queue the end-of-turn flush;
    ///   for an acknowledgement, whether only acknowledgements wait (the timer must be armed).
    mutating func append(_ message: ServerMessage, as timing: Timing) -> Bool {
        let wasEmpty = buffer.readableBytes == 0
        encoder.withLine(of: message) { buffer.writeBytes($0) }
        switch timing {
        case .now:
            onlyAcknowledgements = false
            return !isReading
        case .endOfTurn:
            onlyAcknowledgements = false
            guard !isReading, !flushQueued else { return false }
            flushQueued = true
            return true
        case .acknowledgement:
            if wasEmpty { onlyAcknowledgements = true }
            return onlyAcknowledgements
        }
    }

    /// Ends a `channelRead`; returns whether to flush (unless only acknowledgements wait).
    mutating func endReading() -> Bool {
        isReading = false
        return !onlyAcknowledgements
    }

    /// The lines to write now, if any, and the context to write them through.
    mutating func takeForWrite() -> (lines: ByteBuffer, context: ChannelHandlerContext?)? {
        onlyAcknowledgements = false
        return buffer.readableBytes > 0 ? (buffer, context) : nil
    }

    /// Makes the buffer empty again after a write. Written at once (the usual case), its storage is ours again
    /// and `clear` keeps it; still queued in NIO, `clear` leaves it to NIO and the next line starts a fresh
    /// buffer. A big one-off (`apps` on a large registry) is not kept for the life of the connection.
    mutating func reclaim(keepingAtMost keptCapacity: Int, allocator: ByteBufferAllocator) {
        if buffer.capacity > keptCapacity {
            buffer = allocator.buffer(capacity: 1024)
        } else {
            buffer.clear()
        }
    }
}
