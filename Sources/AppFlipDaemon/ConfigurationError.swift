/// Why a configuration file was refused: the file, the field, and what is wrong with it.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var field: String?
    public var message: String

    public init(file: String, field: String? = nil, _ message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    public var description: String {
        "\(file): " + (field.map { "`\($0)`: " } ?? "") + message
    }
}
