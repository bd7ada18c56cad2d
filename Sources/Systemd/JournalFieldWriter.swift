import Logging

/// Writes a log event's fields into its `JournalEntry`: each metadata key named by `JournalFieldName`, each
/// value redacted by `LogRedaction`, all kept as `NAME=value` bytes in one buffer.
///
/// A `JournalFieldSource` writes its fields through it; the entry of a swift-log event goes through it too.
/// Each metadata field is written with a space before it, so that once they are in order they are already
/// the end of the stderr line (`JournalEntry.metadataLine`).
struct JournalFieldWriter {
    private var bytes: [UInt8] = []
    private var spans: [JournalEntry.FieldSpan] = []
    private let fieldName: JournalFieldName
    private let redaction: LogRedaction

    /// Room for a dozen metadata fields, as the handoff record has; more grow the buffers.
    private static let expectedMetadataFields = 12

    init(fieldName: JournalFieldName, redaction: LogRedaction) {
        self.fieldName = fieldName
        self.redaction = redaction
        bytes.reserveCapacity(256 + 48 * Self.expectedMetadataFields)
        spans.reserveCapacity(JournalEntry.standardFieldCount + Self.expectedMetadataFields)
    }

    /// A field whose value is text: redacted as the metadata value `.string(value)` under `key` would be.
    mutating func field(_ key: String, _ value: String) {
        field(fieldName.fieldKey(key), value)
    }

    /// A field whose value is a number: the same bytes as the metadata value `.stringConvertible(value)`.
    mutating func field(_ key: String, _ value: Int) {
        field(fieldName.fieldKey(key), value)
    }

    /// ``field(_:_:)-(JournalFieldKey,String)`` with the text's UTF-8 bytes, as a packed record holds them.
    mutating func field(_ key: JournalFieldKey, utf8 value: UnsafeBufferPointer<UInt8>) {
        let resolved = key.resolved
        let (start, equals) = beginMetadataField(resolved.spelled)
        if resolved.sensitive {
            bytes.appendUTF8(redaction.fingerprint(String(decoding: value, as: UTF8.self)))
        } else {
            redaction.scrub(utf8: value, appendingTo: &bytes)
        }
        spans.append(JournalEntry.FieldSpan(start: start, equals: equals, end: bytes.count, order: resolved.order))
    }

    /// ``field(_:_:)-(String,String)`` under a key resolved once, by the handler that writes the entry.
    mutating func field(_ key: JournalFieldKey, _ value: String) {
        // Read in place where the string allows it (a native one always does): `withUTF8` needs a mutable
        // copy, and copying a string costs an atomic count.
        if value.utf8.withContiguousStorageIfAvailable({ field(key, utf8: $0) }) == nil {
            var contiguous = value
            contiguous.withUTF8 { field(key, utf8: $0) }
        }
    }

    /// ``field(_:_:)-(String,Int)`` under a key resolved once, by the handler that writes the entry.
    mutating func field(_ key: JournalFieldKey, _ value: Int) {
        let resolved = key.resolved
        let (start, equals) = beginMetadataField(resolved.spelled)
        if resolved.sensitive {
            bytes.appendUTF8(redaction.fingerprint(String(value)))
        } else {
            bytes.appendDecimal(value)
        }
        spans.append(JournalEntry.FieldSpan(start: start, equals: equals, end: bytes.count, order: resolved.order))
    }

    /// A swift-log metadata value, redacted by its full (dotted) key: a dictionary is flattened
    /// (`peer: [uid: 1000]` → `APPFLIP_PEER_UID=1000`), an array repeats the field once per element.
    mutating func field(_ key: String, _ value: Logger.MetadataValue) {
        switch value {
        case .dictionary(let dictionary):
            for (subkey, subvalue) in dictionary { field(key + "." + subkey, subvalue) }
        case .array(let elements):
            for element in elements { field(key, element.description) }
        case .string(let string):
            field(key, string)
        case .stringConvertible(let convertible):
            field(key, convertible.description)
        }
    }

    /// The fields every entry starts with, in ``JournalEntry``'s order.
    mutating func standardFields(
        level: Logger.Level,
        message: UnsafeBufferPointer<UInt8>,
        label: String,
        source: String,
        file: String,
        function: String,
        line: UInt,
        identifier: String
    ) {
        messageField(message)
        callSiteFields(level: level, label: label, source: source, file: file, function: function, line: line, identifier: identifier)
    }

    /// The fields every entry starts with, those after `MESSAGE` copied from `callSite`.
    mutating func standardFields(message: UnsafeBufferPointer<UInt8>, callSite: CallSite) {
        messageField(message)
        let shift = bytes.count
        bytes += callSite.bytes
        for span in callSite.spans {
            spans.append(JournalEntry.FieldSpan(start: span.start + shift, equals: span.equals + shift, end: span.end + shift, order: 0))
        }
    }

    /// The standard fields after `MESSAGE` of every entry logged from one call site, written once
    /// (`JournalRecordKind`): spelling them out for every handoff record was a tenth of the writer's work.
    struct CallSite: Sendable {
        let bytes: [UInt8]
        let spans: [JournalEntry.FieldSpan]

        init(level: Logger.Level, label: String, source: String, file: String, function: String, line: UInt, identifier: String) {
            var writer = JournalFieldWriter(fieldName: JournalFieldName(), redaction: LogRedaction())
            writer.callSiteFields(level: level, label: label, source: source, file: file, function: function, line: line, identifier: identifier)
            bytes = writer.bytes
            spans = writer.spans
        }
    }

    private mutating func messageField(_ message: UnsafeBufferPointer<UInt8>) {
        let field = beginStandardField("MESSAGE=")
        redaction.scrub(utf8: message, appendingTo: &bytes)
        endStandardField(field)
    }

    private mutating func callSiteFields(
        level: Logger.Level,
        label: String,
        source: String,
        file: String,
        function: String,
        line: UInt,
        identifier: String
    ) {
        standardField("PRIORITY=", number: UInt(JournalPriority(level).rawValue))
        standardField("SYSLOG_IDENTIFIER=", identifier)
        standardField("CODE_FILE=", file)
        standardField("CODE_LINE=", number: line)
        standardField("CODE_FUNC=", function)
        standardField("SWIFT_LOG_LABEL=", label)
        standardField("SWIFT_LOG_SOURCE=", source)
    }

    /// The entry's bytes and fields, the metadata's (after the first `standardFieldCount`) in a stable
    /// order: by name, then by value for repeated names; and where they lie in the bytes, back to back.
    consuming func finish(standardFieldCount: Int) -> (bytes: [UInt8], spans: [JournalEntry.FieldSpan], metadataLine: Range<Int>) {
        let metadata = standardFieldCount..<spans.count
        guard let first = spans[metadata].first else { return (bytes, spans, bytes.count..<bytes.count) }
        let line = first.start - 1..<bytes.count
        let inOrder = bytes.withUnsafeBufferPointer { bytes in
            spans[metadata].indices.dropFirst().allSatisfy { !Self.precedes(spans[$0], spans[$0 - 1], in: bytes) }
        }
        if inOrder { return (bytes, spans, line) }
        // Written out of order: sorted, then copied in that order, each with its space before it.
        var sorted = Array(spans[metadata])
        bytes.withUnsafeBufferPointer { bytes in
            // An insertion sort, stable: an entry has a dozen fields.
            for index in sorted.indices.dropFirst() {
                let span = sorted[index]
                var at = index
                while at > 0, Self.precedes(span, sorted[at - 1], in: bytes) {
                    sorted[at] = sorted[at - 1]
                    at -= 1
                }
                sorted[at] = span
            }
        }
        var ordered = Array(bytes[..<line.lowerBound])
        ordered.reserveCapacity(bytes.count)
        spans.removeSubrange(metadata)
        for span in sorted {
            let shift = ordered.count + 1 - span.start
            ordered += bytes[span.start - 1..<span.end]
            spans.append(JournalEntry.FieldSpan(start: span.start + shift, equals: span.equals + shift, end: span.end + shift, order: span.order))
        }
        return (ordered, spans, line)
    }

    private static func precedes(_ lhs: JournalEntry.FieldSpan, _ rhs: JournalEntry.FieldSpan, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if lhs.order != rhs.order { return lhs.order < rhs.order }
        if !bytes[lhs.name].elementsEqual(bytes[rhs.name]) { return bytes[lhs.name].lexicographicallyPrecedes(bytes[rhs.name]) }
        return bytes[lhs.value].lexicographicallyPrecedes(bytes[rhs.value])
    }

    /// Appends `NAME=`; returns where the field and its `=` are.
    private mutating func beginStandardField(_ nameAndEquals: StaticString) -> (start: Int, equals: Int) {
        let start = bytes.count
        nameAndEquals.withUTF8Buffer { bytes.append(contentsOf: $0) }
        return (start, bytes.count - 1)
    }

    private mutating func endStandardField(_ field: (start: Int, equals: Int)) {
        spans.append(JournalEntry.FieldSpan(start: field.start, equals: field.equals, end: bytes.count, order: 0))
    }

    private mutating func standardField(_ nameAndEquals: StaticString, _ value: String) {
        let field = beginStandardField(nameAndEquals)
        bytes.appendUTF8(value)
        endStandardField(field)
    }

    private mutating func standardField(_ nameAndEquals: StaticString, number: UInt) {
        let field = beginStandardField(nameAndEquals)
        bytes.appendDecimal(number)
        endStandardField(field)
    }

    /// Appends ` NAME=`; returns where the field (after the space) and its `=` are.
    private mutating func beginMetadataField(_ spelled: [UInt8]) -> (start: Int, equals: Int) {
        let start = bytes.count + 1
        bytes += spelled
        return (start, bytes.count - 1)
    }
}
