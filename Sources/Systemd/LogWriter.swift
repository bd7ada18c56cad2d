import CSystemd
import Glibc
import Logging
import NIOConcurrencyHelpers

/// Writes `JournalLogHandler`'s entries on a thread of its own, so that an event loop that logs pays for
/// building a record, not for the system call that writes it: lines for stderr leave in batches (one
/// `write` for everything logged since the last one), journal entries one datagram each.
///
/// Hand-written rather than a NIO thread pool: the writer must keep the order of entries across threads,
/// drain at `exit`, and never block a logging thread on a slow stderr or journald.
/// - Memory is bounded: past ``maximumPendingBytes`` waiting to be written, an entry is dropped and counted,
///   and the count is written as one warning line when the writer catches up.
/// - Order is kept: entries leave in the order they were logged, also when an entry of level `error` or
///   above is written at once (after everything before it), so that it is out before the process exits.
/// - Nothing is lost at a normal exit: `exit(3)` runs ``drain()`` on ``shared``.
final class LogWriter: @unchecked Sendable {
    /// The process's one writer: stderr and the journal are one per process too. `exit(3)` drains it.
    static let shared = LogWriter(drainsAtExit: true)

    /// Past this many bytes waiting, entries are dropped (and counted) instead of queued.
    let maximumPendingBytes: Int
    /// Where the lines for stderr go, a batch at a time.
    private let standardError: @Sendable ([UInt8]) -> Void
    private let drainsAtExit: Bool

    /// One log event, made into its entry, formatted and written on the writer thread.
    struct Item {
        var level: Logger.Level
        /// When it was logged, for the stderr line.
        var time: time_t
        /// To journald (falling back to stderr if it refuses), or to stderr.
        var toJournal: Bool
        /// What it holds in memory while it waits, roughly: what ``maximumPendingBytes`` counts.
        var estimatedBytes: Int
        /// Builds the redacted fields.
        var entry: () -> JournalEntry
    }

    /// Guards ``pending``, ``pendingBytes``, ``dropped`` and ``threadStarted``; value 1 while there is work.
    private let queue = ConditionLock(value: 0)
    private var pending: [Item] = []
    private var pendingBytes = 0
    private var dropped = 0
    private var threadStarted = false
    /// Held while writing, by the writer thread or by a caller writing at once: entries leave in order.
    /// Guards ``timestamp``.
    private let writing = NIOLock()
    /// The stderr lines' time, formatted once per second.
    private var timestamp = UTCTimestamp()

    /// - Parameters:
    ///   - maximumPendingBytes: the bound on what waits to be written.
    ///   - standardError: writes a batch of stderr lines; a test passes its own.
    ///   - drainsAtExit: for ``shared`` alone: when its thread starts, `atexit` is told to drain it, so that a
    ///     normal exit loses nothing queued. A test's writer is drained by the test.
    init(
        maximumPendingBytes: Int = 8 << 20,
        standardError: @escaping @Sendable ([UInt8]) -> Void = LogWriter.writeToStandardError,
        drainsAtExit: Bool = false
    ) {
        self.maximumPendingBytes = maximumPendingBytes
        self.standardError = standardError
        self.drainsAtExit = drainsAtExit
    }

    /// Queues `item`; the writer thread writes it soon.
    func enqueue(_ item: Item) {
        queue.lock()
        if !threadStarted { startThread() }
        let size = item.estimatedBytes
        if pendingBytes + size > maximumPendingBytes {
            dropped += 1
            queue.unlock(withValue: 1)
            return
        }
        let wasIdle = pending.isEmpty
        pending.append(item)
        pendingBytes += size
        // Only the first entry of a batch wakes the writer: a wake-up per entry would cost more than the entry.
        if wasIdle { queue.unlock(withValue: 1) } else { queue.unlock() }
    }

    /// Writes everything queued, then `item`, before returning.
    func writeNow(_ item: Item) {
        writing.withLock {
            write(takeAll())
            write([item])
        }
    }

    /// Writes everything queued before returning; `exit(3)` calls it.
    func drain() {
        writing.withLock { write(takeAll()) }
    }

    private func takeAll() -> [Item] {
        queue.lock()
        var items = pending
        pending = []
        pendingBytes = 0
        if dropped > 0 {
            let count = dropped
            let notice = {
                JournalEntry(
                    level: .warning,
                    message: "\(count) log entries dropped: the log could not keep up",
                    metadata: [:],
                    label: "LogWriter",
                    source: "Systemd",
                    file: #fileID,
                    function: #function,
                    line: #line,
                    identifier: JournalLogHandler.programName(),
                    fieldName: JournalFieldName(),
                    redaction: LogRedaction()
                )
            }
            items.append(Item(level: .warning, time: time(nil), toJournal: items.last?.toJournal ?? false, estimatedBytes: 0, entry: notice))
            dropped = 0
        }
        queue.unlock(withValue: 0)
        return items
    }

    private func run() {
        while true {
            queue.lock(whenValue: 1)
            queue.unlock()
            // Woken by the first entry, let the batch gather for a moment: a busy daemon's entries then
            // leave a millisecond's worth per write, for one wake-up.
            usleep(Self.gatheringMicroseconds)
            drain()
        }
    }

    /// How long the writer lets a batch gather after its first entry.
    static let gatheringMicroseconds: UInt32 = 1000

    /// Called with `queue` held.
    private func startThread() {
        threadStarted = true
        if drainsAtExit { atexit { LogWriter.shared.drain() } }
        // The thread keeps its writer for the life of the process.
        let writer = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread,
            nil,
            { writer in
                Unmanaged<LogWriter>.fromOpaque(writer!).takeUnretainedValue().run()
                return nil
            },
            writer
        )
        if started == 0 { pthread_detach(thread) }
    }

    private func write(_ items: [Item]) {
        var lines: [UInt8] = []
        for item in items {
            let entry = item.entry()
            if item.toJournal, Self.sendToJournal(entry) { continue }
            JournalLogHandler.appendStandardErrorLine(entry, level: item.level, time: item.time, timestamp: &timestamp, to: &lines)
        }
        if !lines.isEmpty { standardError(lines) }
    }

    /// Sends the entry as one iovec per `FIELD=value`, cut from the entry's bytes; returns whether journald
    /// took it.
    static func sendToJournal(_ entry: JournalEntry) -> Bool {
        entry.bytes.withUnsafeBytes { bytes in
            let vectors = entry.spans.map { span in
                iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + span.start), iov_len: span.end - span.start)
            }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) } >= 0
        }
    }

    @Sendable static func writeToStandardError(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
