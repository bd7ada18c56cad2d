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
public struct JournalEntry: Sendable, Hashable {
    /// The fields, in the order they are sent; a name may repeat.
    public let fields: [JournalField]

    /// The fields before the metadata: `MESSAGE` first, `SYSLOG_IDENTIFIER` third.
    static let standardFieldCount = 8

    /// The redacted `MESSAGE`.
    var message: String { fields[0].value }

    /// `SYSLOG_IDENTIFIER`: the program.
    var identifier: String { fields[2].value }

    /// The metadata's fields, after the standard ones.
    var metadataFields: ArraySlice<JournalField> { fields[Self.standardFieldCount...] }

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
        var fields = [
            JournalField(name: "MESSAGE", value: redaction.scrub(message)),
            JournalField(name: "PRIORITY", value: String(JournalPriority(level).rawValue)),
            JournalField(name: "SYSLOG_IDENTIFIER", value: identifier),
            JournalField(name: "CODE_FILE", value: file),
            JournalField(name: "CODE_LINE", value: String(line)),
            JournalField(name: "CODE_FUNC", value: function),
            JournalField(name: "SWIFT_LOG_LABEL", value: label),
            JournalField(name: "SWIFT_LOG_SOURCE", value: source),
        ]
        var metadataFields: [JournalField] = []
        metadataFields.reserveCapacity(metadata.count)
        for (key, value) in metadata {
            Self.flatten(key: key, value: value, fieldName: fieldName, redaction: redaction, into: &metadataFields)
        }
        // Stable order: by name, then by value for repeated names. Every name starts with the field name
        // prefix, and the eight bytes after it, compared as one number, decide almost every comparison:
        // comparing the strings was a tenth of the record's cost.
        let prefixLength = fieldName.prefix.utf8.count
        var ordered = metadataFields.map { (order: Self.order(of: $0.name, after: prefixLength), field: $0) }
        ordered.sort { $0.order != $1.order ? $0.order < $1.order : ($0.field.name, $0.field.value) < ($1.field.name, $1.field.value) }
        fields += ordered.lazy.map(\.field)
        self.fields = fields
    }

    /// The name's bytes after its first `prefixLength`, up to eight, as a big-endian number: a shorter name
    /// gets zeros, so these numbers order names as their bytes do, up to ties.
    private static func order(of name: String, after prefixLength: Int) -> UInt64 {
        func order(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var order: UInt64 = 0
            for index in 0..<8 {
                let at = prefixLength + index
                order = order << 8 | (at < bytes.count ? UInt64(bytes[at]) : 0)
            }
            return order
        }
        return name.utf8.withContiguousStorageIfAvailable(order) ?? Array(name.utf8).withUnsafeBufferPointer(order)
    }

    /// Appends the fields of one metadata value, redacted by its full (dotted) key.
    static func flatten(
        key: String,
        value: Logger.MetadataValue,
        fieldName: JournalFieldName,
        redaction: LogRedaction,
        into fields: inout [JournalField]
    ) {
        switch value {
        case .dictionary(let dictionary):
            for (subkey, subvalue) in dictionary {
                flatten(key: key + "." + subkey, value: subvalue, fieldName: fieldName, redaction: redaction, into: &fields)
            }
        case .array(let elements):
            let (sensitive, name) = fieldName.resolve(key: key)
            for element in elements {
                fields.append(JournalField(name: name, value: redaction.redact(sensitive: sensitive, value: element.description)))
            }
        case .string, .stringConvertible:
            let (sensitive, name) = fieldName.resolve(key: key)
            fields.append(
                JournalField(
                    name: name,
                    value: redaction.redact(sensitive: sensitive, value: value.description)
                )
            )
        }
    }
}
