public import Logging

/// A log event's metadata that writes itself into the journal entry, for an event logged on every request.
///
/// swift-log hands a `LogHandler` its metadata as a `Logger.Metadata` dictionary, built and hashed by the
/// caller for every event: for the daemon's handoff record that was a quarter of the record's cost, on the
/// event loop (docs/operations.md, "What the handoff line costs"). A type that conforms is logged with
/// ``JournalLogHandler/log(level:_:fields:source:file:function:line:)`` instead, and writes the same keys
/// and values straight into the entry, on the log writer's thread.
public protocol JournalFieldSource: Sendable {
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
