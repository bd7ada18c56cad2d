/// The reply to `hello`.
public struct HelloResult: Sendable, Hashable, Codable {
    public var version: Int
    public var server: String
    public var maxLineBytes: Int
    /// The credentials the daemon recorded for this connection.
    public var peer: PeerInfo?

    public init(version: Int, server: String, maxLineBytes: Int, peer: PeerInfo?) {
        self.version = version
        self.server = server
        self.maxLineBytes = maxLineBytes
        self.peer = peer
    }
}
