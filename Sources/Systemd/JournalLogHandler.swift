import CSystemd
import Glibc
public import Logging

/// A swift-log `LogHandler` that writes structured entries to journald with sd_journal_sendv(3).
///
/// Every entry carries the fields `JournalEntry` lists, redacted by `LogRedaction`, so that
/// `journalctl -u appflipd APPFLIP_HANDOFF_ID=…` finds one handoff's lines. When the process does not run
/// under journald (`JournalStream` says stderr is not the journal), or journald refuses an entry, the
/// entry goes to stderr as one line of the same fields:
/// `2026-11-22T07:01:02Z warning appflipd: message APPFLIP_APP=com.example`.
///
/// ```swift
/// LoggingSystem.bootstrap { label in JournalLogHandler(label: label) }
/// ```
public struct JournalLogHandler: LogHandler {
    /// Where entries go.
    public enum Destination: Sendable, Hashable {
        case journal
        case standardError

        /// The journal when stderr is connected to it, stderr otherwise.
        public static func automatic() -> Destination {
            JournalStream.isStandardErrorConnected() ? .journal : .standardError
        }
    }

    /// The handler's own metadata; swift-log's `Logger` sets it.
    public var metadata: Logger.Metadata = [:]
    /// Metadata added to each event from the task's context, such as a request id.
    public var metadataProvider: Logger.MetadataProvider?
    /// Events below this level are dropped.
    public var logLevel: Logger.Level = .info

    /// The logger's label, sent as `SWIFT_LOG_LABEL`.
    public let label: String
    /// Where entries go.
    public let destination: Destination
    let identifier: String
    let fieldName: JournalFieldName
    let redaction: LogRedaction

    /// - Parameters:
    ///   - identifier: `SYSLOG_IDENTIFIER`; by default the program's file name.
    ///   - fieldPrefix: put before every metadata field name.
    ///   - redaction: what happens to credentials; see `LogRedaction`.
    public init(
        label: String,
        identifier: String = JournalLogHandler.programName(),
        destination: Destination = .automatic(),
        fieldPrefix: String = "APPFLIP_",
        redaction: LogRedaction = LogRedaction(),
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.label = label
        self.identifier = identifier
        self.destination = destination
        self.fieldName = JournalFieldName(prefix: fieldPrefix)
        self.redaction = redaction
        self.metadataProvider = metadataProvider
    }

    /// `key` resolved into the journal field this handler writes it as (its prefix, its redaction).
    func fieldKey(_ key: String) -> JournalFieldKey {
        fieldName.fieldKey(key)
    }

    /// A kind of record that this handler logs with ``log(_:pack:)``: `fields` are its metadata keys, in
    /// the order of their journal names; the call site is fixed, as it is for a record logged in one place.
    public func recordKind(
        level: Logger.Level,
        fields: [JournalRecordKind.Field],
        source: String,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) -> JournalRecordKind {
        JournalRecordKind(level: level, fields: fields, handler: self, source: source, file: file, function: function, line: line)
    }

    /// Logs one record of `kind`, which `pack` packs straight into the log writer's queue: the entry is the
    /// one its fields' swift-log metadata makes (``JournalRecordKind/metadata(packing:)``), made on the
    /// writer's thread. With handler or provider metadata to merge, it goes through ``log(event:)``.
    public func log(_ kind: JournalRecordKind, pack: (inout JournalRecordPacker) -> Void) {
        guard kind.level >= logLevel else { return }
        guard metadata.isEmpty, metadataProvider == nil, kind.level < .error else {
            let (message, metadata) = kind.metadata(packing: pack)
            let event = LogEvent(
                level: kind.level,
                message: "\(message)",
                metadata: metadata,
                source: kind.source,
                file: kind.file,
                function: kind.function,
                line: kind.line
            )
            return log(event: event)
        }
        LogWriter.shared.enqueue(kind, time: time(nil), pack: pack)
    }

    /// One metadata value of the handler; swift-log's `Logger` subscript calls it.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Sends one event as a journal entry, or as a line on stderr. The caller pays for the message and the
    /// metadata; the entry's fields, their redaction and the write are `LogWriter`'s, on its thread.
    public func log(event: LogEvent) {
        let message = event.message.description
        let metadata = effectiveMetadata(for: event)
        write(
            level: event.level,
            message: message,
            fields: MetadataFields(metadata: metadata),
            source: event.source,
            file: event.file,
            function: event.function,
            line: event.line,
            estimatedBytes: 256 + message.utf8.count + 64 * metadata.count
        )
    }

    private func write(
        level: Logger.Level,
        message: String,
        fields: some JournalFieldSource,
        source: String,
        file: String,
        function: String,
        line: UInt,
        estimatedBytes: Int
    ) {
        let item = LogWriter.Item(level: level, time: time(nil), toJournal: destination == .journal, estimatedBytes: estimatedBytes) {
            [label, identifier, fieldName, redaction] in
            JournalEntry(
                level: level,
                message: message,
                fields: fields,
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
        // An error is out before the process may end; everything else leaves on the writer's thread.
        if level >= .error { LogWriter.shared.writeNow(item) } else { LogWriter.shared.enqueue(item) }
    }

    /// Handler metadata, overridden by the provider's, overridden by the log call's, as swift-log's own
    /// handlers merge them.
    private func effectiveMetadata(for event: LogEvent) -> Logger.Metadata {
        // The usual case, and on every handoff: only the call's metadata, taken as it is.
        if metadata.isEmpty, metadataProvider == nil, event.error == nil { return event.metadata ?? [:] }
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata, !explicit.isEmpty {
            merged.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    /// One line: time, level, identifier, message and the metadata fields.
    static func standardErrorLine(_ entry: JournalEntry, level: Logger.Level, time: time_t = time(nil)) -> String {
        var line: [UInt8] = []
        var timestamp = UTCTimestamp()
        appendStandardErrorLine(entry, level: level, time: time, timestamp: &timestamp, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// ``standardErrorLine(_:level:time:)`` appended as bytes: `LogWriter` gathers a batch of them, with one
    /// `timestamp` that formats each second once.
    static func appendStandardErrorLine(
        _ entry: JournalEntry,
        level: Logger.Level,
        time: time_t,
        timestamp: inout UTCTimestamp,
        to line: inout [UInt8]
    ) {
        line += timestamp.bytes(for: time)
        line.append(UInt8(ascii: " "))
        line.appendUTF8(level.rawValue)
        line.append(UInt8(ascii: " "))
        entry.bytes.withUnsafeBufferPointer { bytes in
            line += bytes[entry.spans[2].value]
            line.append(UInt8(ascii: ":"))
            line.append(UInt8(ascii: " "))
        }
        let messageStart = line.count
        entry.bytes.withUnsafeBufferPointer { bytes in
            line += bytes[entry.spans[0].value]
            line += bytes[entry.metadataLine]
        }
        // Almost every line has no byte that can start a line break: only a line with one is walked by
        // characters.
        let mayBreak = line.withUnsafeBufferPointer { bytes in Self.mayBreakLine(UnsafeBufferPointer(rebasing: bytes[messageStart...])) }
        if mayBreak {
            let text = String(decoding: line[messageStart...], as: UTF8.self).replacingNewlines()
            line.removeSubrange(messageStart...)
            line.appendUTF8(text)
        }
        line.append(UInt8(ascii: "\n"))
    }

    /// Whether a byte can start a line break: U+000A…U+000D, or the first byte of U+0085 (C2) or of U+2028
    /// and U+2029 (E2). Eight bytes at a time, and only a word that may hold one is looked at byte by byte:
    /// byte by byte throughout, this scan was a tenth of the handoff record's cost on the writer's thread.
    static func mayBreakLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func startsBreak(_ byte: UInt8) -> Bool { (byte >= 0x0A && byte <= 0x0D) || byte == 0xC2 || byte == 0xE2 }
        var index = 0
        while index + 8 <= bytes.count {
            let word = ByteWord(bytes, at: index)
            let suspect = word.hasByte(below: 0x0E) || word.hasByte(0xC2) || word.hasByte(0xE2)
            if suspect, bytes[index..<index + 8].contains(where: startsBreak) { return true }
            index += 8
        }
        return bytes[index...].contains(where: startsBreak)
    }

    /// The file name this program was started as, for `SYSLOG_IDENTIFIER`.
    public static func programName() -> String {
        let path = CommandLine.arguments.first ?? "swift"
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}

extension String {
    /// One log line per entry on stderr: embedded line breaks become `\n`.
    fileprivate func replacingNewlines() -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character.isNewline { result += "\\n" } else { result.append(character) }
        }
        return result
    }
}
