public import Logging

/// The fields a log event becomes, redacted, in the order they are sent.
///
/// - `MESSAGE`: the message, scrubbed by `LogRedaction`;
/// - `PRIORITY`: the level, mapped by `JournalPriority`;
/// - `SYSLOG_IDENTIFIER`: the program (what `journalctl -t` selects);
/// - `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`: the call site;
/// - `SWIFT_LOG_LABEL`, `SWIFT_LOG_SOURCE`: the logger's label and the emitting module;
/// - one field per metadata value, named by `JournalFieldName` and sorted by name. A dictionary value is
///   flattened (`peer: [uid: 1000]` → `APPFLIP_PEER_UID=1000`); an array value repeats the field once per
///   element. An error passed to the log call arrives as `error.message` and `error.type`, as swift-log's
///   own handlers name them (`APPFLIP_ERROR_MESSAGE`, `APPFLIP_ERROR_TYPE`).
///
/// The fields are kept as `NAME=value` bytes in one buffer, from which the journal's iovecs and the stderr
/// line are cut: a string per field was most of the handoff record's cost on the log writer's thread
/// (docs/performance.md, "The handoff line").
public struct JournalEntry: Sendable, Hashable {
    /// Every field's `NAME=value`, back to back, in the order the fields were made.
    let bytes: [UInt8]
    /// Where each field lies in ``bytes``, in the order they are sent; a name may repeat.
    let spans: [FieldSpan]
    /// The metadata's fields in ``bytes``, each after a space, in order: the end of the stderr line.
    let metadataLine: Range<Int>

    /// One field's place in ``JournalEntry/bytes``.
    struct FieldSpan: Sendable {
        var start: Int
        var equals: Int
        var end: Int
        /// What orders the metadata's fields before their bytes do (`JournalFieldWriter`).
        var order: UInt64

        /// `NAME=value`.
        var field: Range<Int> { start..<end }
        var name: Range<Int> { start..<equals }
        var value: Range<Int> { equals + 1..<end }
    }

    /// The fields before the metadata: `MESSAGE` first, `SYSLOG_IDENTIFIER` third.
    static let standardFieldCount = 8

    /// The fields, in the order they are sent; a name may repeat.
    public var fields: [JournalField] {
        spans.map { span in
            JournalField(name: String(decoding: bytes[span.name], as: UTF8.self), value: String(decoding: bytes[span.value], as: UTF8.self))
        }
    }

    /// Builds the fields of one log event, redacting as it goes.
    public init(
        level: Logger.Level,
        message: String,
        metadata: Logger.Metadata,
        label: String,
        source: String,
        file: String,
        function: String,
        line: UInt,
        identifier: String,
        fieldName: JournalFieldName,
        redaction: LogRedaction
    ) {
        self.init(
            level: level,
            message: message,
            fields: MetadataFields(metadata: metadata),
            label: label,
            source: source,
            file: file,
            function: function,
            line: line,
            identifier: identifier,
            fieldName: fieldName,
            redaction: redaction
        )
    }

    /// Builds the fields of one log event whose metadata `fields` writes: the same entry as from
    /// `fields.metadata`, without the dictionary.
    init(
        level: Logger.Level,
        message: String,
        fields: some JournalFieldSource,
        label: String,
        source: String,
        file: String,
        function: String,
        line: UInt,
        identifier: String,
        fieldName: JournalFieldName,
        redaction: LogRedaction
    ) {
        var writer = JournalFieldWriter(fieldName: fieldName, redaction: redaction)
        var message = message
        message.withUTF8 { message in
            writer.standardFields(
                level: level,
                message: message,
                label: label,
                source: source,
                file: file,
                function: function,
                line: line,
                identifier: identifier
            )
        }
        fields.writeFields(into: &writer)
        (bytes, spans, metadataLine) = writer.finish(standardFieldCount: Self.standardFieldCount)
    }

    /// The entry of a record packed by `JournalRecordPacker`: its message's UTF-8 bytes, the standard fields
    /// after `MESSAGE` written once for its kind's call site, and its values.
    init(
        message: UnsafeBufferPointer<UInt8>,
        callSite: JournalFieldWriter.CallSite,
        fields: some JournalFieldSource,
        fieldName: JournalFieldName,
        redaction: LogRedaction
    ) {
        var writer = JournalFieldWriter(fieldName: fieldName, redaction: redaction)
        writer.standardFields(message: message, callSite: callSite)
        fields.writeFields(into: &writer)
        (bytes, spans, metadataLine) = writer.finish(standardFieldCount: Self.standardFieldCount)
    }

    /// Entries are equal when their fields are, whatever the order they were made in.
    public static func == (lhs: JournalEntry, rhs: JournalEntry) -> Bool {
        lhs.spans.count == rhs.spans.count
            && zip(lhs.spans, rhs.spans).allSatisfy { lhs.bytes[$0.field].elementsEqual(rhs.bytes[$1.field]) }
    }

    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { bytes in
            for span in spans { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[span.field])) }
        }
    }
}

/// syslog(3) priorities, as journald stores them in `PRIORITY=`.
public enum JournalPriority: Int, Sendable, Hashable {
    case emergency = 0
    case alert, critical, error, warning, notice, info, debug

    /// swift-log's seven levels on syslog's eight: `trace` and `debug` both become debug (7), because
    /// syslog has nothing below it; the other five keep their names.
    public init(_ level: Logger.Level) {
        switch level {
        case .trace, .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}
