import AppFlipCore

/// A URL a handler asks to open, with its options.
public struct OpenURLRequest: Sendable, Hashable, Codable {
    /// The URL to open, as `UIApplication.open(_:options:)` gets it.
    public var url: String
    /// How to open it.
    public var options: OpenOptions

    /// Creates the request.
    public init(url: String, options: OpenOptions = .init()) {
        self.url = url
        self.options = options
    }

    /// Decodes the request; missing `options` are the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        options = try container.decodeIfPresent(OpenOptions.self, forKey: .options) ?? .init()
    }
}
