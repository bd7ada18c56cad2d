import Glibc
import Logging
import Testing

@testable import Systemd

/// Sends through a real journald and reads the entry back with `journalctl`. Runs where journald
/// listens: scripts/systemd-e2e.sh runs this suite inside its namespace; elsewhere it is skipped.
@Suite(.enabled(if: access("/run/systemd/journal/socket", F_OK) == 0, "needs a running journald"))
struct JournalIntegrationTests {
    /// The output of a shell command.
    func run(_ command: String) -> String {
        guard let pipe = popen(command, "r") else { return "" }
        defer { pclose(pipe) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            output += buffer[..<count]
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The export form of the entry whose `APPFLIP_TEST_MARKER` is `marker`; empty, with an issue recorded,
    /// when none appears. journald writes asynchronously: polled, bounded.
    func journalEntry(marked marker: String) -> String {
        var entry = ""
        for _ in 0..<50 where entry.isEmpty {
            entry = run("journalctl -o export --no-pager APPFLIP_TEST_MARKER=\(marker) 2>/dev/null")
            if entry.isEmpty { usleep(100_000) }
        }
        #expect(!entry.isEmpty, "no journal entry with APPFLIP_TEST_MARKER=\(marker)")
        return entry
    }

    @Test func journaldStoresEveryFieldAndNoCredential() throws {
        let marker = "t\(getpid())x\(UInt32.random(in: 0...UInt32.max))"
        var logger = Logger(label: "systemd-tests") { label in
            JournalLogHandler(label: label, identifier: "systemd-tests", destination: .journal, metadataProvider: nil)
        }
        logger.logLevel = .debug
        logger.warning(
            "delivered https://h/a/com.google.OPA?code=SECRET-\(marker)&state=s\nsecond line",
            metadata: ["test-marker": "\(marker)", "handoffID": "h-1", "access_token": "SECRET-\(marker)"]
        )
        let entry = journalEntry(marked: marker)
        #expect(!entry.contains("SECRET-"))
        let secretShown = "[redacted:\("SECRET-\(marker)".utf8.count)B]"
        for field in [
            "PRIORITY=4", "SYSLOG_IDENTIFIER=systemd-tests", "APPFLIP_HANDOFF_ID=h-1", "APPFLIP_ACCESS_TOKEN=\(secretShown)",
            "SWIFT_LOG_LABEL=systemd-tests", "CODE_FUNC=journaldStoresEveryFieldAndNoCredential()",
        ] {
            #expect(entry.contains("\n\(field)\n"), "missing \(field)")
        }
        #expect(entry.contains("CODE_FILE=SystemdTests/JournalIntegrationTests.swift"))
        // A message with a line break is stored in the export format's binary form, whole.
        #expect(entry.contains("code=\(secretShown)&state=s\nsecond line"))
    }

    /// A record of a `JournalRecordKind` reaches journald with its fields, redacted: packed into the log
    /// writer's queue when the handler has no metadata of its own, and through swift-log's path, which merges
    /// the handler's own metadata or its provider's, when it has.
    @Test(arguments: ["none", "handler", "provider"])
    func aRecordOfAKindReachesTheJournal(handlerMetadata: String) throws {
        let marker = "t\(getpid())x\(UInt32.random(in: 0...UInt32.max))"
        let provider = Logger.MetadataProvider { ["instance": "i-\(marker)"] }
        var handler = JournalLogHandler(
            label: "systemd-tests",
            identifier: "systemd-tests",
            destination: .journal,
            metadataProvider: handlerMetadata == "provider" ? provider : nil
        )
        if handlerMetadata == "handler" { handler[metadataKey: "instance"] = "i-\(marker)" }
        let kind = handler.recordKind(
            level: .warning,
            fields: [.init("access_token"), .init("hop"), .init("test-marker"), .init("url", render: { $0 + "#rendered" })],
            source: "systemd-tests"
        )
        handler.log(kind) { packer in
            packer.message("handoff ")
            packer.message("handled")
            packer.text(0, "SECRET-\(marker)")
            packer.number(1, 2)
            packer.text(2, marker)
            packer.text(3, "https://a.test/r?code=SECRET-TOO&state=s")
        }
        let entry = journalEntry(marked: marker)
        #expect(!entry.contains("SECRET-"))
        var expected = [
            "APPFLIP_HOP=2", "APPFLIP_ACCESS_TOKEN=[redacted:\("SECRET-\(marker)".utf8.count)B]", "MESSAGE=handoff handled", "PRIORITY=4",
            "APPFLIP_URL=https://a.test/r?code=[redacted:10B]&state=s#rendered",
        ]
        if handlerMetadata != "none" { expected.append("APPFLIP_INSTANCE=i-\(marker)") }
        for field in expected {
            #expect(entry.contains("\n\(field)\n"), "missing \(field)")
        }
        #expect(handlerMetadata != "none" || !entry.contains("APPFLIP_INSTANCE"))
    }
}
