import AppFlipDaemon
import Logging
import Systemd

/// The daemon's ``HandoffLog`` when its logger writes to the journal (or to stderr) through
/// `JournalLogHandler`: the record goes to the log writer as it is, and its fields are written into the
/// entry on the writer's thread, instead of a `Logger.Metadata` dictionary built and hashed on the event
/// loop for every hop. The entry is the same (`JournalHandoffLogTests`).
struct JournalHandoffLog: HandoffLog {
    let handler: JournalLogHandler
    /// The journal field of each `HandoffRecord.Field`, by its raw value: resolved by `handler` once.
    private let keys: [JournalFieldKey]

    init(handler: JournalLogHandler) {
        self.handler = handler
        self.keys = HandoffRecord.Field.allCases.map { handler.fieldKey($0.key) }
    }

    var isEnabled: Bool { handler.logLevel <= .info }

    func log(_ record: HandoffRecord, source: String, file: String, function: String, line: UInt) {
        handler.log(level: .info, record.message, fields: fields(of: record), source: source, file: file, function: function, line: line)
    }

    /// `record`'s fields, as this log writes them into an entry of its handler.
    func fields(of record: HandoffRecord) -> Fields {
        Fields(record: record, keys: keys)
    }

    /// The record's fields, written into the entry under their resolved keys.
    struct Fields: JournalFieldSource {
        let record: HandoffRecord
        let keys: [JournalFieldKey]

        var metadata: Logger.Metadata { record.metadata }

        func writeFields(into writer: inout JournalFieldWriter) {
            record.forEachField { field, value in
                let key = keys[field.rawValue]
                switch value {
                case .text(let text): writer.field(key, text)
                case .number(let number): writer.field(key, number)
                case .deferred(let value): writer.field(key, value.description)
                }
            }
        }
    }
}
