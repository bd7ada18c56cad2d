import AppFlipCore

/// A URL a handler asks to open, with its options.
public struct OpenURLRequest: Sendable, Hashable, Codable {
    public var url: String
    public var options: OpenOptions

    public init(url: String, options: OpenOptions = .init()) {
        self.url = url
        self.options = options
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(String.self, forKey: .url)
        options = try container.decodeIfPresent(OpenOptions.self, forKey: .options) ?? .init()
    }
}
