import AppFlipProtocol
import Logging
import Testing

@testable import AppFlipDaemon
@testable import AppFlipServer
@testable import Systemd

/// The daemon's handoff record reaches the journal packed as bytes, without a metadata dictionary, and the
/// entry the log writer makes of it is the one its metadata makes: what `HandoffLogTests` checks through
/// swift-log holds for the journal too.
@Suite struct JournalHandoffLogTests {
    static let records = [
        HandoffRecord(
            handoffID: HandoffIDs().name(7),
            hop: 1,
            url: "https://oauth-redirect.googleusercontent.com/a/com.google.OPA?code=SECRET-CODE&state=s1",
            app: "EQHXZ8M8AV.com.google.OPA",
            rule: "/applinks/details/0/components/0",
            outcome: "delivered",
            latencyMicros: 731,
            peer: PeerInfo(uid: 1000, gid: 1000, pid: 4242),
            client: "appflip code=SECRET-TOO"
        ),
        HandoffRecord(
            handoffID: HandoffIDs().name(8),
            hop: 0,
            url: "https://partner.test/link",
            app: nil,
            rule: nil,
            outcome: "no_app",
            latencyMicros: 12,
            peer: nil,
            client: nil
        ),
    ]

    @Test(arguments: records.indices)
    func theJournalEntryIsTheOneTheRecordsMetadataMakes(index: Int) {
        let record = Self.records[index]
        let handler = JournalLogHandler(label: "appflipd", identifier: "appflipd", destination: .standardError, metadataProvider: nil)
        let (direct, fromMetadata) = (packedEntry(record, handler), entry(record, record.metadata))
        #expect(direct == fromMetadata)
        #expect(
            JournalLogHandler.standardErrorLine(direct, level: .info, time: 0)
                == JournalLogHandler.standardErrorLine(fromMetadata, level: .info, time: 0)
        )
        let names = direct.fields.dropFirst(JournalEntry.standardFieldCount).map(\.name)
        #expect(names == names.sorted(), "written in the order of their names, as forEachField promises")
        #expect(!direct.fields.contains { $0.value.contains("SECRET") })
    }

    @Test func theRecordsKeysAreResolvedByItsHandler() {
        let handler = JournalLogHandler(
            label: "appflipd",
            identifier: "appflipd",
            destination: .standardError,
            fieldPrefix: "PARTNER_",
            metadataProvider: nil
        )
        let record = Self.records[0]
        let names = packedEntry(record, handler).fields.dropFirst(JournalEntry.standardFieldCount).map(\.name)
        #expect(names.first == "PARTNER_APP")
        #expect(names.count == 10)
        #expect(names.allSatisfy { $0.hasPrefix("PARTNER_") }, "\(names)")
    }

    @Test func theDaemonsJournalHandlerGetsTheRecordsAsTheyAre() {
        var handler = JournalLogHandler(label: "appflipd", identifier: "appflipd", destination: .standardError, metadataProvider: nil)
        handler.logLevel = .info
        #expect(JournalHandoffLog(handler: handler).isEnabled)
        handler.logLevel = .notice
        #expect(!JournalHandoffLog(handler: handler).isEnabled)
    }

    /// The entry the log writer makes of the record as `JournalHandoffLog` packs it.
    func packedEntry(_ record: HandoffRecord, _ handler: JournalLogHandler) -> JournalEntry {
        JournalHandoffLog(handler: handler).kind.entry { JournalHandoffLog.pack(record, into: &$0) }
    }

    /// The record's entry from its swift-log metadata, as any `LogEvent` logged from `HandoffRecord.site` is
    /// made into one.
    func entry(_ record: HandoffRecord, _ metadata: Logger.Metadata) -> JournalEntry {
        let site = HandoffRecord.site
        return JournalEntry(
            level: .info,
            message: record.message,
            metadata: metadata,
            label: "appflipd",
            source: site.source,
            file: site.file,
            function: site.function,
            line: site.line,
            identifier: "appflipd",
            fieldName: JournalFieldName(),
            redaction: LogRedaction()
        )
    }
}
