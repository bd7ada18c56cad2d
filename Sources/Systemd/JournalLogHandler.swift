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
    private let identifier: String
    private let fieldName: JournalFieldName
    private let redaction: LogRedaction

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

    /// One metadata value of the handler; swift-log's `Logger` subscript calls it.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Sends one event as a journal entry, or as a line on stderr.
    public func log(event: LogEvent) {
        let entry = JournalEntry(
            level: event.level,
            message: event.message.description,
            metadata: effectiveMetadata(for: event),
            label: label,
            source: event.source,
            file: event.file,
            function: event.function,
            line: event.line,
            identifier: identifier,
            fieldName: fieldName,
            redaction: redaction
        )
        if destination == .journal, Self.send(entry) { return }
        Self.writeToStandardError(Self.standardErrorLine(entry, level: event.level))
    }

    /// Handler metadata, overridden by the provider's, overridden by the log call's, as swift-log's own
    /// handlers merge them.
    private func effectiveMetadata(for event: LogEvent) -> Logger.Metadata {
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

    /// Sends the entry as one iovec per `FIELD=value`, all in one buffer.
    ///
    /// - Returns: whether journald accepted it.
    static func send(_ entry: JournalEntry) -> Bool {
        var buffer: [UInt8] = []
        var ranges: [Range<Int>] = []
        buffer.reserveCapacity(entry.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 1 })
        ranges.reserveCapacity(entry.fields.count)
        for field in entry.fields {
            let start = buffer.count
            buffer += field.name.utf8
            buffer.append(UInt8(ascii: "="))
            buffer += field.value.utf8
            ranges.append(start..<buffer.count)
        }
        return buffer.withUnsafeMutableBytes { bytes in
            let vectors = ranges.map { range in
                iovec(iov_base: bytes.baseAddress! + range.lowerBound, iov_len: range.count)
            }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) } >= 0
        }
    }

    /// One line: time, level, identifier, message and the metadata fields.
    static func standardErrorLine(_ entry: JournalEntry, level: Logger.Level) -> String {
        var line = "\(utcTimestamp()) \(level) "
        var message = ""
        for field in entry.fields {
            switch field.name {
            case "MESSAGE": message = field.value
            case "SYSLOG_IDENTIFIER": line += field.value + ": "
            case "PRIORITY", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "SWIFT_LOG_LABEL", "SWIFT_LOG_SOURCE": break
            default: message += " \(field.name)=\(field.value)"
            }
        }
        line += message.replacingNewlines()
        line += "\n"
        return line
    }

    private static func writeToStandardError(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    private static func utcTimestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
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
        // Almost every line has none: without a byte that can start a line break (U+000A…U+000D, U+0085,
        // U+2028, U+2029), skip the walk over characters, which cost a fifth of a busy daemon's time.
        guard utf8.contains(where: { (0x0A...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character.isNewline { result += "\\n" } else { result.append(character) }
        }
        return result
    }
}
