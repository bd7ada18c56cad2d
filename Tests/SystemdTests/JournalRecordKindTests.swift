import Logging
import Testing

@testable import Systemd

/// A record packed by `JournalRecordPacker` becomes, on the writer's side, the entry and the line that its
/// fields' swift-log metadata makes: in order or not, with credentials, renderers, line breaks, empty text
/// and bytes outside ASCII.
@Suite struct JournalRecordKindTests {
    static let handler = JournalLogHandler(label: "appflipd.router", identifier: "appflipd", destination: .standardError, metadataProvider: nil)

    static let kind = handler.recordKind(
        level: .info,
        fields: [
            .init("app"), .init("access_token"), .init("auth_code"), .init("client"), .init("delta"), .init("handoff_id"),
            .init("hop"), .init("url", render: render),
        ],
        source: "AppFlipDaemon",
        file: "AppFlipDaemon/Router.swift",
        function: "route(_:)",
        line: 42
    )

    /// The URL field's renderer: what it does shows in the entry.
    @Sendable static func render(_ url: String) -> String { "<" + url + ">" }

    /// One record: its message parts, then (field, value) in packing order.
    struct Record: Sendable, CustomStringConvertible {
        enum Value: Sendable {
            case text(String)
            case number(Int)
            case numbered(String, UInt64)
        }
        var message: [String]
        var values: [(field: Int, value: Value)]

        var description: String { message.joined() }

        func pack(into packer: inout JournalRecordPacker) {
            for part in message { packer.message(part) }
            for (field, value) in values {
                switch value {
                case .text(let text): packer.text(field, text)
                case .number(let number): packer.number(field, number)
                case .numbered(let prefix, let number): packer.text(field, prefix, number: number)
                }
            }
        }

        /// The metadata a swift-log caller would pass for the same record.
        var metadata: Logger.Metadata {
            var metadata: Logger.Metadata = [:]
            for (field, value) in values {
                let key = JournalRecordKindTests.kind.fields[field].key
                switch value {
                case .text(let text): metadata[key] = .string(key == "url" ? JournalRecordKindTests.render(text) : text)
                case .number(let number): metadata[key] = .stringConvertible(number)
                case .numbered(let prefix, let number): metadata[key] = .string(prefix + String(number))
                }
            }
            return metadata
        }
    }

    static let records = [
        Record(message: ["handoff ", "handled"], values: []),
        Record(
            message: ["handoff ", "delivered"],
            values: [
                (0, .text("ünïcödé ✓")), (3, .text("")), (5, .numbered("66129f6378a3a-", 2004)), (6, .number(0)),
                (7, .text("https://h/a?code=SECRET&state=s")),
            ]
        ),
        // Out of order, a sensitive key as text and as a number, a negative number and the smallest, a value
        // with a line break, a bearer token, the largest id, and a message that names a secret.
        Record(
            message: ["code=SECRET ", "é\nline"],
            values: [
                (7, .text("https://h/")), (1, .text("SECRET")), (4, .number(-42)), (2, .number(123_456)), (0, .text("two\nlines")),
                (3, .text("Bearer SECRET")), (6, .number(Int.min)), (5, .numbered("", UInt64.max)),
            ]
        ),
    ]

    @Test(arguments: records.indices)
    func makesTheEntryAndTheLineItsMetadataMakes(index: Int) {
        let record = Self.records[index]
        let packed = Self.kind.entry { record.pack(into: &$0) }
        let fromMetadata = JournalEntry.example(level: .info, message: record.message.joined(), metadata: record.metadata)
        #expect(packed.fields == fromMetadata.fields)
        #expect(packed == fromMetadata)
        let lines = [packed, fromMetadata].map { JournalLogHandler.standardErrorLine($0, level: .info, time: 0) }
        #expect(lines[0] == lines[1])
        #expect(!packed.fields.contains { $0.value.contains("SECRET") }, "\(packed.fields)")
    }

    @Test(arguments: records.indices)
    func itsMetadataIsTheFieldsMetadata(index: Int) {
        let record = Self.records[index]
        let (message, metadata) = Self.kind.metadata { record.pack(into: &$0) }
        #expect(message == record.message.joined())
        #expect(metadata.mapValues { $0.description } == record.metadata.mapValues { $0.description })
    }

    @Test func theFieldsAreNamedByTheHandlerThatMadeTheKind() {
        let handler = JournalLogHandler(label: "l", identifier: "i", destination: .standardError, fieldPrefix: "PARTNER_", metadataProvider: nil)
        let kind = handler.recordKind(level: .notice, fields: [.init("handoffID"), .init("access_token")], source: "s")
        let entry = kind.entry { packer in
            packer.message("m")
            packer.text(0, "h-1")
            packer.text(1, "SECRET")
        }
        #expect(
            Array(entry.fields.dropFirst(JournalEntry.standardFieldCount)) == [
                JournalField(name: "PARTNER_ACCESS_TOKEN", value: "[redacted:6B]"), JournalField(name: "PARTNER_HANDOFF_ID", value: "h-1"),
            ]
        )
        #expect(entry.fields.first == JournalField(name: "MESSAGE", value: "m"))
        #expect(entry.fields.contains(JournalField(name: "PRIORITY", value: "5")))
    }
}
