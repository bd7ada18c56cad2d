/// The reply to `hello`.
public struct HelloResult: Sendable, Hashable, Codable {
    /// The protocol version the daemon speaks on this connection.
    public var version: Int
    /// The daemon program's name, `appflipd`.
    public var server: String
    /// The daemon's release (`appflipd --version`), so that a client or a CI log can tell which build answered;
    /// optional because daemons before it did not send one, and protocol v1 clients must accept either.
    public var serverVersion: String?
    /// The longest line, in bytes, newline excluded, the daemon accepts; longer ones are refused with `line_too_long`.
    public var maxLineBytes: Int
    /// The credentials the daemon recorded for this connection.
    public var peer: PeerInfo?

    /// Creates the reply.
    public init(version: Int, server: String, serverVersion: String? = nil, maxLineBytes: Int, peer: PeerInfo?) {
        self.version = version
        self.server = server
        self.serverVersion = serverVersion
        self.maxLineBytes = maxLineBytes
        self.peer = peer
    }
}
