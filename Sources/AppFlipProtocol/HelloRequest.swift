import AppFlipCore

/// `hello`: the first request on every connection.
public struct HelloRequest: Sendable, Hashable, Codable {
    /// The protocol version the client speaks; see ``ProtocolVersion``.
    public var version: Int
    /// A free-form name of the client program, for logs and `watch`.
    public var client: String?

    /// Creates the request for this build's protocol version.
    public init(version: Int = ProtocolVersion.current, client: String? = nil) {
        self.version = version
        self.client = client
    }

    private enum CodingKeys: String, CodingKey {
        case version, client
    }

    /// Decodes the request; a `version` of `1.5` is refused as a mismatch at `version`, not as a line that
    /// is no JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeInteger(forKey: .version)
        client = try container.decodeIfPresent(String.self, forKey: .client)
    }
}
