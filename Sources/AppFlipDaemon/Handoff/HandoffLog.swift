import Logging

/// Where ``HandoffRecord``s go: one info line per hop.
///
/// By default a swift-log info line with one metadata value per field. The daemon's composition passes one
/// that writes the journal entry straight from the record, without a `Logger.Metadata` dictionary on the
/// event loop (docs/performance.md, "The handoff line").
public protocol HandoffLog: Sendable {
    /// Whether records are logged at all; when not, none is made.
    var isEnabled: Bool { get }

    /// Logs one hop's record, from ``HandoffRecord/site``.
    func log(_ record: HandoffRecord)
}

/// The default ``HandoffLog``: `logger.info` with ``HandoffRecord/metadata``.
struct LoggerHandoffLog: HandoffLog {
    let logger: Logger

    var isEnabled: Bool { logger.logLevel <= .info }

    func log(_ record: HandoffRecord) {
        let site = HandoffRecord.site
        logger.info("\(record.message)", metadata: record.metadata, source: site.source, file: site.file, function: site.function, line: site.line)
    }
}
