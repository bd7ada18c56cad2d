import Logging

/// One `FIELD=value` pair of a journal entry.
public struct JournalField: Sendable, Hashable {
    /// The field name, e.g. `MESSAGE` or `APPFLIP_PEER_UID`.
    public let name: String
    /// The field value, already redacted.
    public let value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A metadata key resolved into its journal field once: the field's name (`APPFLIP_HANDOFF_ID`), whether its
/// values are credentials, and its place in the entry's order.
///
/// A ``JournalFieldSource`` whose keys are fixed resolves them once, with the handler that writes its
/// entries (``JournalLogHandler/fieldKey(_:)``), instead of looking each one up again for every entry in a
/// table shared by every thread that logs: for the daemon's handoff record that lookup, behind its lock, was
/// a fifth of what writing the fields cost.
struct JournalFieldKey: Sendable {
    let resolved: JournalFieldName.Resolved
}

extension JournalFieldName {
    /// `key` resolved into its journal field under this prefix.
    func fieldKey(_ key: String) -> JournalFieldKey {
        JournalFieldKey(resolved: resolve(key: key))
    }
}

/// A log event's metadata that writes itself into the journal entry: a swift-log event's dictionary
/// (`MetadataFields`), or a record packed by `JournalRecordPacker` (`PackedFields`), whose fields go into the
/// entry straight from its bytes, on the log writer's thread, with no `Logger.Metadata` in between.
protocol JournalFieldSource: Sendable {
    /// The fields as swift-log metadata: what any other `LogHandler` gets. The entry made from them equals
    /// the one ``writeFields(into:)`` makes.
    var metadata: Logger.Metadata { get }

    /// Writes every field of ``metadata``, one ``JournalFieldWriter/field(_:_:)`` per value.
    func writeFields(into writer: inout JournalFieldWriter)
}

/// A swift-log event's metadata as a field source: how every entry but the daemon's handoff record is made.
struct MetadataFields: JournalFieldSource {
    let metadata: Logger.Metadata

    func writeFields(into writer: inout JournalFieldWriter) {
        for (key, value) in metadata { writer.field(key, value) }
    }
}
