import AppFlipClient
import AppFlipProtocol
import AppFlipTesting
import Logging
import NIOConcurrencyHelpers
import Testing

/// Every handoff leaves one info line with the fields the journal turns into `APPFLIP_*`, and no code.
@Suite struct HandoffLogTests {
    @Test func oneInfoLinePerHopUnderOneHandoffIDWithTheCodeRedacted() async throws {
        let lines = CapturedLog()
        var logger = Logger(label: "appflipd-test") { _ in CapturingLogHandler(log: lines) }
        logger.logLevel = .info
        let apps = [
            TestApp(appID: "T.google", domains: ["applinks:redirect.test"], handler: .accept),
            TestApp(appID: "T.partner", domains: ["applinks:partner.test"],
                    handler: .script("read activity; echo 'https://redirect.test/a?code=SECRET-CODE-42&state=s1'")),
        ]
        try await withTestDaemon(apps: apps, logger: logger) { daemon in
            let client = try await daemon.connect()
            #expect(try await client.open("https://partner.test/link?state=s1").status == .handled)
        }
        let handoffs = lines.entries.filter { $0.message.hasPrefix("handoff ") }
        try #require(handoffs.count == 2)
        let (first, result) = (handoffs.first { $0.metadata["hop"] == "0" }!, handoffs.first { $0.metadata["hop"] == "1" }!)
        #expect(handoffs.allSatisfy { $0.level == .info })
        #expect(first.metadata["handoff_id"] != nil && first.metadata["handoff_id"] == result.metadata["handoff_id"])
        #expect(first.metadata["app"] == "T.partner")
        #expect(first.metadata["outcome"] == "handled")
        #expect(first.metadata["rule"] == "/applinks/details/0/components/0")
        #expect(first.metadata["peer_uid"] != nil && first.metadata["peer_pid"] != nil && first.metadata["latency_us"] != nil)
        #expect(result.metadata["app"] == "T.google")
        #expect(result.metadata["outcome"] == "delivered")
        #expect(result.metadata["url"] == "https://redirect.test/a?code=[redacted:14B]&state=s1")
        #expect(!lines.entries.contains { "\($0.message) \($0.metadata)".contains("SECRET-CODE-42") })
    }

    @Test func eachOpenGetsItsOwnHandoffID() async throws {
        let lines = CapturedLog()
        let logger = Logger(label: "appflipd-test") { _ in CapturingLogHandler(log: lines) }
        try await withTestDaemon(apps: [TestApp(appID: "T.accept", domains: ["applinks:accept.test"], handler: .accept)], logger: logger) { daemon in
            let client = try await daemon.connect()
            for _ in 0..<3 { _ = try await client.open("https://accept.test/") }
        }
        let ids = lines.entries.filter { $0.message.hasPrefix("handoff ") }.compactMap { $0.metadata["handoff_id"] }
        #expect(ids.count == 3 && Set(ids).count == 3)
    }
}

/// Log lines, kept for the assertions.
final class CapturedLog: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let box = NIOLockedValueBox<[Entry]>([])
    var entries: [Entry] { box.withLockedValue { $0 } }
    func append(_ entry: Entry) { box.withLockedValue { $0.append(entry) } }
}

struct CapturingLogHandler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        log.append(.init(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}
