import Logging

@testable import Systemd

extension JournalEntry {
    /// An entry as the daemon's router would log it, for the tests that need one.
    static func example(level: Logger.Level = .notice, message: String = "handed off", metadata: Logger.Metadata) -> JournalEntry {
        example(level: level, message: message, fields: MetadataFields(metadata: metadata))
    }

    /// The same entry, with its metadata written by `fields`.
    static func example(level: Logger.Level = .notice, message: String = "handed off", fields: some JournalFieldSource) -> JournalEntry {
        JournalEntry(
            level: level,
            message: message,
            fields: fields,
            label: "appflipd.router",
            source: "AppFlipDaemon",
            file: "AppFlipDaemon/Router.swift",
            function: "route(_:)",
            line: 42,
            identifier: "appflipd",
            fieldName: JournalFieldName(),
            redaction: LogRedaction()
        )
    }
}
