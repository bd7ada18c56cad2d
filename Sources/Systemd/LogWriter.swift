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
///   and the count is written as one warning line when the writer catches up. The queue keeps the memory it
///   grew to (two batches' item arrays and packed records), so that a busy logger allocates nothing per entry.
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
        var entry: Entry

        init(level: Logger.Level, time: time_t, toJournal: Bool, estimatedBytes: Int, entry: @escaping () -> JournalEntry) {
            self.init(level: level, time: time, toJournal: toJournal, estimatedBytes: estimatedBytes, entry: .event(entry))
        }

        init(level: Logger.Level, time: time_t, toJournal: Bool, estimatedBytes: Int, entry: Entry) {
            self.level = level
            self.time = time
            self.toJournal = toJournal
            self.estimatedBytes = estimatedBytes
            self.entry = entry
        }
    }

    /// What an item's entry is made from.
    enum Entry {
        /// A swift-log event: builds the redacted fields.
        case event(() -> JournalEntry)
        /// A record of `kind`, packed into the batch's record bytes at `range`.
        case record(JournalRecordKind, range: Range<Int>)
    }

    /// Guards ``pending``, ``records``, the spares, ``pendingBytes``, ``dropped`` and ``threadStarted``; value 1
    /// while there is work.
    private let queue = ConditionLock(value: 0)
    private var pending: [Item] = []
    /// The packed records of ``pending``'s items, back to back.
    private var records = PackedBytes()
    /// The last batch's item array and record bytes, emptied, kept for their memory: a busy logger then
    /// allocates nothing per entry to queue it.
    private var spareItems: [Item] = []
    private var spareRecords = PackedBytes()
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

    /// Queues a record of `kind`, packed by `pack` into the queue's record bytes, under the queue's lock.
    func enqueue(_ kind: JournalRecordKind, time: time_t, pack: (inout JournalRecordPacker) -> Void) {
        queue.lock()
        if !threadStarted { startThread() }
        var packer = JournalRecordPacker(storage: records.take())
        pack(&packer)
        let range = packer.record
        records = packer.storage
        let size = MemoryLayout<Item>.stride + range.count
        if pendingBytes + size > maximumPendingBytes {
            records.truncate(to: range.lowerBound)
            dropped += 1
            queue.unlock(withValue: 1)
            return
        }
        let wasIdle = pending.isEmpty
        pending.append(Item(level: kind.level, time: time, toJournal: kind.toJournal, estimatedBytes: size, entry: .record(kind, range: range)))
        pendingBytes += size
        if wasIdle { queue.unlock(withValue: 1) } else { queue.unlock() }
    }

    /// Writes everything queued, then `item`, before returning.
    func writeNow(_ item: Item) {
        writing.withLock {
            writeBatch(takeAll())
            write([item], records: PackedBytes())
        }
    }

    /// Writes everything queued before returning; `exit(3)` calls it.
    func drain() {
        writing.withLock { writeBatch(takeAll()) }
    }

    /// Writes a batch, then gives its arrays back for the next one.
    private func writeBatch(_ batch: consuming Batch) {
        var items = batch.items
        var records = batch.records
        write(items, records: records)
        items.removeAll(keepingCapacity: true)
        records.truncate(to: 0)
        queue.lock()
        spareItems = items
        // Two buffers take turns: one fills while the other is written (under `writing`, one batch at a time).
        precondition(spareRecords.base == nil, "one batch's records are written at a time")
        spareRecords = records
        queue.unlock()
    }

    private static func take<Element>(_ array: inout [Element]) -> [Element] {
        let taken = array
        array = []
        return taken
    }

    /// What one write takes: the items queued and their packed records.
    private struct Batch: ~Copyable {
        var items: [Item]
        var records: PackedBytes
    }

    private func takeAll() -> Batch {
        queue.lock()
        var items = Self.take(&pending)
        pending = Self.take(&spareItems)
        let batchRecords = records.take()
        records = spareRecords.take()
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
        return Batch(items: items, records: batchRecords)
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

    private func write(_ items: [Item], records: borrowing PackedBytes) {
        var lines: [UInt8] = []
        for item in items {
            let entry =
                switch item.entry {
                case .event(let make): make()
                case .record(let kind, let range):
                    kind.entry(packed: PackedRecord(bytes: UnsafeBufferPointer(rebasing: records.bytes[range])))
                }
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
