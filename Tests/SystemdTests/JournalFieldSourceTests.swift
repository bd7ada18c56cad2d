import Logging
import Testing

@testable import Systemd

/// A `JournalFieldSource` makes the entry its metadata would make, whatever order it writes its fields in.
@Suite struct JournalFieldSourceTests {
    /// Writes its fields in the order given, as text or as numbers.
    struct Source: JournalFieldSource {
        enum Value: Sendable {
            case text(String)
            case number(Int)
        }
        var fields: [(key: String, value: Value)]

        var metadata: Logger.Metadata {
            var metadata: Logger.Metadata = [:]
            for (key, value) in fields {
                switch value {
                case .text(let text): metadata[key] = .string(text)
                case .number(let number): metadata[key] = .stringConvertible(number)
                }
            }
            return metadata
        }

        func writeFields(into writer: inout JournalFieldWriter) {
            for (key, value) in fields {
                switch value {
                case .text(let text): writer.field(key, text)
                case .number(let number): writer.field(key, number)
                }
            }
        }
    }

    static let sources: [Source] = [
        Source(fields: []),
        Source(fields: [("app", .text("com.example")), ("hop", .number(0)), ("url", .text("https://h/a?code=SECRET&state=s"))]),
        // Out of order, with a sensitive key, a negative number, a sensitive number and a value with a line break.
        Source(fields: [
            ("url", .text("https://h/")), ("access_token", .text("SECRET")), ("delta", .number(-42)), ("auth_code", .number(123_456)),
            ("app", .text("two\nlines")), ("client", .text("Bearer SECRET")), ("hop", .number(Int.min)), ("handoff_id", .text("h-1")),
        ]),
    ]

    /// The entry made by the source, and the one made by its metadata through swift-log's path.
    func entries(of source: Source) -> (direct: JournalEntry, fromMetadata: JournalEntry) {
        (
            .example(level: .info, message: "handoff handled", fields: source),
            .example(level: .info, message: "handoff handled", metadata: source.metadata)
        )
    }

    @Test(arguments: sources.indices)
    func makesTheEntryAndTheLineItsMetadataMakes(index: Int) {
        let (direct, fromMetadata) = entries(of: Self.sources[index])
        #expect(direct.fields == fromMetadata.fields)
        #expect(direct == fromMetadata)
        #expect(
            JournalLogHandler.standardErrorLine(direct, level: .info, time: 0)
                == JournalLogHandler.standardErrorLine(fromMetadata, level: .info, time: 0)
        )
        #expect(direct.fields.count == JournalEntry.standardFieldCount + Self.sources[index].fields.count)
        #expect(!direct.fields.contains { $0.value.contains("SECRET") })
    }

    @Test func sortsWhatItWritesOutOfOrderAndTheLineFollows() {
        let (entry, _) = entries(of: Self.sources[2])
        #expect(
            entry.fields.dropFirst(JournalEntry.standardFieldCount).map(\.name) == [
                "APPFLIP_ACCESS_TOKEN", "APPFLIP_APP", "APPFLIP_AUTH_CODE", "APPFLIP_CLIENT", "APPFLIP_DELTA", "APPFLIP_HANDOFF_ID",
                "APPFLIP_HOP", "APPFLIP_URL",
            ]
        )
        #expect(
            JournalLogHandler.standardErrorLine(entry, level: .info, time: 0)
                == "1970-01-01T00:00:00Z info appflipd: handoff handled APPFLIP_ACCESS_TOKEN=[redacted:6B] APPFLIP_APP=two\\nlines "
                + "APPFLIP_AUTH_CODE=[redacted:6B] APPFLIP_CLIENT=Bearer [redacted:6B] APPFLIP_DELTA=-42 APPFLIP_HANDOFF_ID=h-1 "
                + "APPFLIP_HOP=-9223372036854775808 APPFLIP_URL=https://h/\n"
        )
    }
}
