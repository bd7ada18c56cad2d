import Logging

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
