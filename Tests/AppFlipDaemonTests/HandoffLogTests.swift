import AppFlipClient
import AppFlipProtocol
import AppFlipTesting
import InMemoryLogging
import Logging
import Testing

/// Every handoff leaves one info line with the fields the journal turns into `APPFLIP_*`, and no code.
@Suite struct HandoffLogTests {
    @Test func oneInfoLinePerHopUnderOneHandoffIDWithTheCodeRedacted() async throws {
        let lines = InMemoryLogHandler()
        var logger = Logger(label: "appflipd-test") { _ in lines }
        logger.logLevel = .info
        let apps = [
            TestApp(appID: "T.google", domains: ["applinks:redirect.test"], handler: .accept),
            TestApp(
                appID: "T.partner",
                domains: ["applinks:partner.test"],
                handler: .script("read activity; echo 'https://redirect.test/a?code=SECRET-CODE-42&state=s1'")
            ),
        ]
        try await withTestDaemon(apps: apps, logger: logger) { daemon in
            let client = try await daemon.connect()
            #expect(try await client.open("https://partner.test/link?state=s1").status == .handled)
        }
        let handoffs = lines.entries.filter { $0.message.description.hasPrefix("handoff ") }
        try #require(handoffs.count == 2)
        #expect(handoffs.allSatisfy { $0.level == .info })
        let fields = handoffs.map(\.fields)
        let (first, result) = (fields.first { $0["hop"] == "0" }!, fields.first { $0["hop"] == "1" }!)
        #expect(first["handoff_id"] != nil && first["handoff_id"] == result["handoff_id"])
        #expect(first["app"] == "T.partner")
        #expect(first["outcome"] == "handled")
        #expect(first["rule"] == "/applinks/details/0/components/0")
        #expect(first["peer_uid"] != nil && first["peer_pid"] != nil && first["latency_us"] != nil)
        #expect(result["app"] == "T.google")
        #expect(result["outcome"] == "delivered")
        #expect(result["url"] == "https://redirect.test/a?code=[redacted:14B]&state=s1")
        #expect(!lines.entries.contains { "\($0.message) \($0.metadata)".contains("SECRET-CODE-42") })
    }

    @Test func eachOpenGetsItsOwnHandoffID() async throws {
        let lines = InMemoryLogHandler()
        let logger = Logger(label: "appflipd-test") { _ in lines }
        try await withTestDaemon(apps: [TestApp(appID: "T.accept", domains: ["applinks:accept.test"], handler: .accept)], logger: logger) { daemon in
            let client = try await daemon.connect()
            for _ in 0..<3 { _ = try await client.open("https://accept.test/") }
        }
        let ids = lines.entries.filter { $0.message.description.hasPrefix("handoff ") }.compactMap { $0.fields["handoff_id"] }
        #expect(ids.count == 3 && Set(ids).count == 3)
    }
}

extension InMemoryLogHandler.Entry {
    /// The metadata as the journal shows it: each value as text.
    var fields: [String: String] { metadata.mapValues { "\($0)" } }
}
