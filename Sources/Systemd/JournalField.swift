import Logging

/// One `FIELD=value` pair of a journal entry.
public struct JournalField: Sendable, Hashable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
