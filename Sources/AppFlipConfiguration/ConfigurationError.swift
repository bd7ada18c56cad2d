import AppFlipCore

/// Why a configuration was refused: the file, the JSON path of the field (`clients[0].redirectURIs`), and
/// what is wrong with it. The one error of every configuration file: `appflipd.json`, `oauth.json`, the
/// `apps.d` app files and the handler configurations in them.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Empty while a configuration is checked in memory; ``ConfigurationFile`` fills it in.
    public var file: String
    /// The field at fault, as a dotted path (`handler.appflip.clientIDs[0]`); `nil` when the whole file is.
    public var field: String?
    /// What is wrong, in users' words. It never quotes the value: it may be a secret.
    public var message: String

    /// Creates an error; `file` is usually left empty for ``ConfigurationFile`` to fill in.
    public init(file: String = "", field: String? = nil, _ message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    /// An error about the field at `codingPath`, for a `Decodable` configuration's `init(from:)`.
    public init(at codingPath: [any CodingKey], _ message: String) {
        self.init(field: DecodingFailure.field(codingPath), message)
    }

    /// This error in `file`, unless it already names one.
    public func located(in file: String) -> ConfigurationError {
        self.file.isEmpty ? ConfigurationError(file: file, field: field, message) : self
    }

    /// This error with its field nested under `prefix` (`handler.exec`), as a configuration decoded on its
    /// own sees only its own keys.
    public func nested(under prefix: String) -> ConfigurationError {
        ConfigurationError(file: file, field: field.map { $0.hasPrefix("[") ? prefix + $0 : prefix + "." + $0 } ?? prefix, message)
    }

    /// `file: \`field\`: message`, the form the daemon logs and `appflipd --check` prints.
    public var description: String {
        (file.isEmpty ? "" : "\(file): ") + (field.map { "`\($0)`: " } ?? "") + message
    }
}
