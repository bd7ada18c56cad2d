import Glibc
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import Systemd

/// `LogWriter` on its own thread, with a stderr that the test reads.
@Suite struct LogWriterTests {
    final class CapturedOutput: Sendable {
        let bytes = NIOLockedValueBox<[UInt8]>([])
        var lines: [String] { String(decoding: bytes.withLockedValue { $0 }, as: UTF8.self).split(separator: "\n").map(String.init) }
    }

    static func item(_ message: String, level: Logger.Level = .info) -> LogWriter.Item {
        LogWriter.Item(level: level, time: 0, toJournal: false, estimatedBytes: 100) {
            .example(level: level, message: message, metadata: ["token": "secret-\(message)", "n": "\(message)"])
        }
    }

    /// What a secret value is logged as: its length.
    static func shown(_ secret: String) -> String { "[redacted:\(secret.utf8.count)B]" }

    @Test func entriesFromTwoThreadsLeaveInTheirOrderRedacted() async {
        let output = CapturedOutput()
        let writer = LogWriter { batch in output.bytes.withLockedValue { $0 += batch } }
        await withTaskGroup(of: Void.self) { group in
            for thread in ["a", "b"] {
                group.addTask { for index in 0..<500 { writer.enqueue(Self.item("\(thread)\(index)")) } }
            }
        }
        writer.drain()
        let lines = output.lines
        #expect(lines.count == 1000)
        for thread in ["a", "b"] {
            let mine = lines.filter { $0.contains("appflipd: \(thread)") }
            #expect(
                mine
                    == (0..<500).map {
                        "1970-01-01T00:00:00Z info appflipd: \(thread)\($0) APPFLIP_N=\(thread)\($0) APPFLIP_TOKEN=\(Self.shown("secret-\(thread)\($0)"))"
                    }
            )
        }
        #expect(!lines.joined().contains("secret-"))
    }

    /// Packed records and swift-log events from two threads, in batches the writer takes while they come,
    /// leave in the order each thread logged them: the queue's record bytes are reused from batch to batch.
    @Test func packedRecordsAndEventsLeaveInTheirOrder() async {
        let output = CapturedOutput()
        let writer = LogWriter { batch in output.bytes.withLockedValue { $0 += batch } }
        let kind = JournalRecordKindTests.kind
        await withTaskGroup(of: Void.self) { group in
            for thread in ["a", "b"] {
                group.addTask {
                    for index in 0..<500 {
                        if index.isMultiple(of: 3) {
                            writer.enqueue(Self.item("\(thread)\(index)"))
                        } else {
                            writer.enqueue(kind, time: 0) { packer in
                                packer.message("\(thread)\(index)")
                                packer.number(6, index)
                                packer.text(1, "secret-\(index)")
                            }
                        }
                    }
                }
            }
        }
        writer.drain()
        let lines = output.lines
        #expect(lines.count == 1000)
        for thread in ["a", "b"] {
            let mine = lines.filter { $0.contains("appflipd: \(thread)") }
            #expect(
                mine
                    == (0..<500).map { index in
                        index.isMultiple(of: 3)
                            ? "1970-01-01T00:00:00Z info appflipd: \(thread)\(index) APPFLIP_N=\(thread)\(index) APPFLIP_TOKEN=\(Self.shown("secret-\(thread)\(index)"))"
                            : "1970-01-01T00:00:00Z info appflipd: \(thread)\(index) APPFLIP_ACCESS_TOKEN=\(Self.shown("secret-\(index)")) APPFLIP_HOP=\(index)"
                    }
            )
        }
        #expect(!lines.joined().contains("secret-"))
    }

    @Test func pastTheBoundPackedRecordsAreDroppedAndCountedAndTheRestIsWhole() {
        let output = CapturedOutput()
        let writer = LogWriter(maximumPendingBytes: 400) { batch in output.bytes.withLockedValue { $0 += batch } }
        for index in 0..<200 {
            writer.enqueue(JournalRecordKindTests.kind, time: 0) { packer in
                packer.message("m\(index)")
                packer.text(0, String(repeating: "x", count: index % 7))
            }
        }
        writer.drain()
        let lines = output.lines
        let written = lines.filter { $0.contains("appflipd: m") }
        let dropped = lines.filter { $0.hasSuffix(" log entries dropped: the log could not keep up") }
            .compactMap { Int($0.split(separator: " ")[3]) }
            .reduce(0, +)
        #expect(dropped > 0)
        #expect(written.count + dropped == 200)
        for line in written {
            let index = Int(line.split(separator: " ")[3].dropFirst())!
            #expect(line.hasSuffix("appflipd: m\(index) APPFLIP_APP=\(String(repeating: "x", count: index % 7))"), "\(line)")
        }
    }

    @Test func anErrorIsWrittenBeforeReturningAfterEverythingBeforeIt() {
        let output = CapturedOutput()
        let writer = LogWriter { batch in output.bytes.withLockedValue { $0 += batch } }
        writer.enqueue(Self.item("first"))
        writer.enqueue(Self.item("second"))
        writer.writeNow(Self.item("failed", level: .error))
        #expect(output.lines.map { $0.split(separator: " ")[3] } == ["first", "second", "failed"])
    }

    @Test func pastTheBoundEntriesAreDroppedAndCounted() {
        let output = CapturedOutput()
        // Room for three items of 100 bytes: the writer thread may take some before the bound is reached,
        // so the test counts what left and what was said to be dropped.
        let writer = LogWriter(maximumPendingBytes: 300) { batch in output.bytes.withLockedValue { $0 += batch } }
        for index in 0..<200 { writer.enqueue(Self.item("m\(index)")) }
        writer.drain()
        let lines = output.lines
        let written = lines.filter { $0.contains("appflipd: m") }.count
        let dropped = lines.filter { $0.hasSuffix(" log entries dropped: the log could not keep up") }
            .compactMap { Int($0.split(separator: " ")[3]) }
            .reduce(0, +)
        #expect(dropped > 0)
        #expect(written + dropped == 200)
    }
}
