import AppFlipCore

/// A confidential OAuth client: it authenticates at /token with its secret.
public struct RegisteredClient: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `clientID` in `oauth.json`; the `client_id` on the wire.
    public var id: String
    /// `clientSecret` in `oauth.json`; only its fingerprint is ever logged.
    public var secret: String
    /// Compared byte for byte: no normalisation, no wildcards (RFC 9700 §2.1).
    public var redirectURIs: [String]
    /// Scopes the client may ask for; a request without `scope` is granted all of them.
    public var scopes: [String]

    /// Creates a client.
    public init(id: String, secret: String, redirectURIs: [String], scopes: [String]) {
        self.id = id
        self.secret = secret
        self.redirectURIs = redirectURIs
        self.scopes = scopes
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id = "clientID"
        case secret = "clientSecret"
        case redirectURIs, scopes
    }

    /// Decodes a `clients` entry of `oauth.json`, refusing unknown keys.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        secret = try container.decode(String.self, forKey: .secret)
        redirectURIs = try container.decode([String].self, forKey: .redirectURIs)
        scopes = try container.decode([String].self, forKey: .scopes)
    }

    /// Redacted: only the secret's fingerprint.
    public var description: String {
        "RegisteredClient(id: \(id), secret: sha256:\(Fingerprint.of(secret)), redirectURIs: \(redirectURIs.count))"
    }
}
