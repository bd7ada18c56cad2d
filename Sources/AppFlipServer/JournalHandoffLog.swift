import AppFlipDaemon
import AppFlipProtocol
import Logging
import Systemd

/// The daemon's ``HandoffLog`` when its logger writes to the journal (or to stderr) through
/// `JournalLogHandler`: each record is packed as bytes into the log writer's queue (`JournalRecordKind`),
/// and its entry is made on the writer's thread, instead of a `Logger.Metadata` dictionary built and hashed
/// on the event loop, or a closure allocated there and freed on the writer's thread, for every hop. The
/// entry is the one the record's metadata makes (`JournalHandoffLogTests`).
struct JournalHandoffLog: HandoffLog {
    let handler: JournalLogHandler
    /// The record's fields, by `HandoffRecord.Field`'s raw value, and its call site: made once.
    let kind: JournalRecordKind

    init(handler: JournalLogHandler) {
        self.handler = handler
        let site = HandoffRecord.site
        self.kind = handler.recordKind(
            level: .info,
            fields: HandoffRecord.Field.allCases.map { field in
                field == .url ? .init(field.key, render: { Redaction.redact(url: $0) }) : .init(field.key)
            },
            source: site.source,
            file: site.file,
            function: site.function,
            line: site.line
        )
    }

    var isEnabled: Bool { handler.logLevel <= .info }

    func log(_ record: HandoffRecord) {
        handler.log(kind) { packer in Self.pack(record, into: &packer) }
    }

    /// Packs `record` as its `kind` reads it: the message, then every field in `forEachField`'s order.
    static func pack(_ record: HandoffRecord, into packer: inout JournalRecordPacker) {
        packer.message(HandoffRecord.messagePrefix)
        packer.message(record.outcome)
        record.forEachField { field, value in
            switch value {
            case .text(let text): packer.text(field.rawValue, text)
            case .number(let number): packer.number(field.rawValue, number)
            case .handoffID(let prefix, let number): packer.text(field.rawValue, prefix, number: number)
            case .url(let url): packer.text(field.rawValue, url)
            }
        }
    }
}
