/// How a client authenticates at the token endpoint (RFC 6749 §2.3.1).
public enum ClientAuthMethod: String, Sendable, Hashable, CaseIterable {
    /// `client_id` and `client_secret` in the form body: what Google sends unless told otherwise.
    case post
    /// HTTP Basic, `client_secret_basic`.
    case basic

    /// The other method.
    public var other: ClientAuthMethod { self == .post ? .basic : .post }

    /// The method's name as RFC 8414 registers it, for evidence.
    public var name: String { self == .post ? "client_secret_post" : "HTTP Basic (client_secret_basic)" }
}
