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
