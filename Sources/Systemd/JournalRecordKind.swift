public import Logging

/// One kind of record that a program logs on every request, from one call site with a fixed set of fields:
/// the daemon's handoff record. A handler makes it once (``JournalLogHandler/recordKind(level:fields:source:file:function:line:)``).
///
/// A record of a kind reaches the log writer's thread as bytes that ``JournalRecordPacker`` copies into the
/// writer's queue on the caller's thread: no allocation and no reference per record that the writer's thread
/// then frees. A closure per record, allocated on the event loop and freed on the writer's thread, cost the
/// event loop more than making the record did (docs/performance.md, "The handoff line"). The
/// writer makes of it the entry that the fields' swift-log metadata would make (``metadata(packing:)``).
public final class JournalRecordKind: Sendable {
    /// One field of the record: its metadata key, and what its text becomes when it is printed.
    public struct Field: Sendable {
        let key: String
        let render: (@Sendable (String) -> String)?

        /// - Parameter render: applied to a text value on the writer's thread, before redaction: a URL
        ///   logged unredacted by the caller, and redacted only when printed.
        public init(_ key: String, render: (@Sendable (String) -> String)? = nil) {
            self.key = key
            self.render = render
        }
    }

    let level: Logger.Level
    let fields: [Field]
    /// Each field's journal name, resolved once by the handler that made the kind.
    let keys: [JournalFieldKey]
    let source: String
    let file: String
    let function: String
    let line: UInt
    let toJournal: Bool
    let fieldName: JournalFieldName
    let redaction: LogRedaction
    /// The entry's standard fields after `MESSAGE`, the same for every record of the kind.
    let callSite: JournalFieldWriter.CallSite

    init(level: Logger.Level, fields: [Field], handler: JournalLogHandler, source: String, file: String, function: String, line: UInt) {
        self.level = level
        self.fields = fields
        self.keys = fields.map { handler.fieldKey($0.key) }
        self.source = source
        self.file = file
        self.function = function
        self.line = line
        self.toJournal = handler.destination == .journal
        self.fieldName = handler.fieldName
        self.redaction = handler.redaction
        self.callSite = JournalFieldWriter.CallSite(
            level: level,
            label: handler.label,
            source: source,
            file: file,
            function: function,
            line: line,
            identifier: handler.identifier
        )
    }

    /// The entry of one packed record, as the log writer makes it.
    func entry(packed record: PackedRecord) -> JournalEntry {
        JournalEntry(
            message: record.message,
            callSite: callSite,
            fields: PackedFields(kind: self, record: record),
            fieldName: fieldName,
            redaction: redaction
        )
    }

    /// The entry of the record that `pack` packs, as the log writer would make it; for tests and benchmarks.
    public func entry(packing pack: (inout JournalRecordPacker) -> Void) -> JournalEntry {
        var packer = JournalRecordPacker(storage: PackedBytes())
        pack(&packer)
        let storage = packer.storage
        return entry(packed: PackedRecord(bytes: storage.bytes))
    }

    /// The message and the swift-log metadata of the record that `pack` packs: what a handler that cannot
    /// take the record as it is (one with metadata of its own to merge) logs instead.
    public func metadata(packing pack: (inout JournalRecordPacker) -> Void) -> (message: String, metadata: Logger.Metadata) {
        var packer = JournalRecordPacker(storage: PackedBytes())
        pack(&packer)
        let storage = packer.storage
        let record = PackedRecord(bytes: storage.bytes)
        return (String(decoding: record.message, as: UTF8.self), PackedFields(kind: self, record: record).metadata)
    }
}

/// A packed record's fields, written into its entry on the log writer's thread.
struct PackedFields: JournalFieldSource {
    let kind: JournalRecordKind
    let record: PackedRecord

    var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        record.forEachValue { field, value in
            let key = kind.fields[field].key
            switch value {
            case .text(let bytes):
                let text = String(decoding: bytes, as: UTF8.self)
                metadata[key] = .string(kind.fields[field].render?(text) ?? text)
            case .number(let number):
                metadata[key] = .stringConvertible(number)
            }
        }
        return metadata
    }

    func writeFields(into writer: inout JournalFieldWriter) {
        record.forEachValue { field, value in
            let key = kind.keys[field]
            switch value {
            case .text(let bytes):
                if let render = kind.fields[field].render {
                    writer.field(key, render(String(decoding: bytes, as: UTF8.self)))
                } else {
                    writer.field(key, utf8: bytes)
                }
            case .number(let number):
                writer.field(key, number)
            }
        }
    }
}

// The fields hold a view of the writer's batch, read only on the thread that writes it.
extension PackedFields: @unchecked Sendable {}
