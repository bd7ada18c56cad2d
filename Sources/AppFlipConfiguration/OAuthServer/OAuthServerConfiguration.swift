import AppFlipCore

/// Everything the embedded authorization server serves, as read from `Config/oauth.json`: camelCase keys,
/// unknown ones refused, like every configuration file.
public struct OAuthServerConfiguration: Sendable, Hashable, Codable {
    /// 8471 (what the systemd units proxy) unless configured; 0 binds an ephemeral port (tests).
    public static let defaultPort = 8471

    /// The loopback address the server binds. Anything but 127.0.0.1 or ::1 is refused by `validate()`.
    public var host: String
    /// The TCP port; see ``defaultPort``.
    public var port: Int
    /// Seconds an authorization code stays redeemable. RFC 6749 §4.1.2 recommends at most 600.
    public var authorizationCodeLifetime: Int
    /// Seconds an access token is valid; sent as `expires_in` (RFC 6749 §5.1).
    public var accessTokenLifetime: Int
    /// What a refresh does to the refresh token presented; `grace` unless configured.
    public var refreshTokenRotation: RefreshTokenRotation
    /// Under `grace`: the most seconds the previous refresh token keeps working after a rotation; nil (the
    /// default) for no time limit, only the first use of its successor.
    public var refreshTokenGraceSeconds: Int?
    /// The confidential clients the server knows; Google is one, by its partner client id.
    public var clients: [RegisteredClient]
    /// The test users who can sign in; there is no password, a user's session is minted in process.
    public var users: [TestUser]

    /// Creates a configuration; the defaults are those of an `oauth.json` that leaves the fields out.
    public init(
        host: String = "127.0.0.1",
        port: Int = OAuthServerConfiguration.defaultPort,
        authorizationCodeLifetime: Int = 60,
        accessTokenLifetime: Int = 3600,
        refreshTokenRotation: RefreshTokenRotation = .grace,
        refreshTokenGraceSeconds: Int? = nil,
        clients: [RegisteredClient],
        users: [TestUser]
    ) {
        self.refreshTokenRotation = refreshTokenRotation
        self.refreshTokenGraceSeconds = refreshTokenGraceSeconds
        self.host = host
        self.port = port
        self.authorizationCodeLifetime = authorizationCodeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.clients = clients
        self.users = users
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, authorizationCodeLifetime, accessTokenLifetime, refreshTokenRotation, refreshTokenGraceSeconds
        case clients, users
    }

    /// Decodes `oauth.json` strictly: camelCase keys, unknown ones refused.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        self.init(
            host: try container.decodeIfPresent(String.self, forKey: .host) ?? "127.0.0.1",
            port: try container.decodeIntegerIfPresent(forKey: .port) ?? Self.defaultPort,
            authorizationCodeLifetime: try container.decodeIntegerIfPresent(forKey: .authorizationCodeLifetime) ?? 60,
            accessTokenLifetime: try container.decodeIntegerIfPresent(forKey: .accessTokenLifetime) ?? 3600,
            refreshTokenRotation: try container.decodeIfPresent(RefreshTokenRotation.self, forKey: .refreshTokenRotation) ?? .grace,
            refreshTokenGraceSeconds: try container.decodeIntegerIfPresent(forKey: .refreshTokenGraceSeconds),
            clients: try container.decode([RegisteredClient].self, forKey: .clients),
            users: try container.decode([TestUser].self, forKey: .users)
        )
    }

    /// Reads and validates a configuration file.
    public static func load(from path: String) throws(ConfigurationError) -> OAuthServerConfiguration {
        let configuration = try ConfigurationFile.load(OAuthServerConfiguration.self, from: path)
        do {
            try configuration.validate()
        } catch {
            throw error.located(in: path)
        }
        return configuration
    }

    /// Refuses configurations the server could not serve safely, naming the field. Secrets are never
    /// quoted in the reason.
    public func validate() throws(ConfigurationError) {
        guard host == "127.0.0.1" || host == "::1" else {
            throw ConfigurationError(field: "host", "\(host) is not loopback: the embedded server only serves 127.0.0.1 or ::1")
        }
        guard (0...65535).contains(port) else { throw ConfigurationError(field: "port", "\(port) is out of range") }
        guard (1...600).contains(authorizationCodeLifetime) else {
            throw ConfigurationError(field: "authorizationCodeLifetime", "must be 1...600 seconds (RFC 6749 §4.1.2)")
        }
        guard accessTokenLifetime >= 1 else { throw ConfigurationError(field: "accessTokenLifetime", "must be positive") }
        if let refreshTokenGraceSeconds {
            guard refreshTokenRotation == .grace else {
                throw ConfigurationError(
                    field: "refreshTokenGraceSeconds",
                    "applies only to \"refreshTokenRotation\": \"grace\""
                )
            }
            guard refreshTokenGraceSeconds >= 1 else {
                throw ConfigurationError(field: "refreshTokenGraceSeconds", "must be positive (omit it for no time limit)")
            }
        }
        guard !clients.isEmpty else { throw ConfigurationError(field: "clients", "no clients are configured") }
        var clientIDs: Set<String> = []
        for (index, client) in clients.enumerated() {
            let field = "clients[\(index)]"
            guard !client.id.isEmpty, clientIDs.insert(client.id).inserted else {
                throw ConfigurationError(field: "\(field).clientID", "\"\(client.id)\" is empty or repeated")
            }
            guard client.secret.utf8.count >= 16 else {
                throw ConfigurationError(field: "\(field).clientSecret", "must be at least 16 bytes")
            }
            guard !client.redirectURIs.isEmpty else {
                throw ConfigurationError(field: "\(field).redirectURIs", "must not be empty")
            }
            if let position = client.redirectURIs.firstIndex(where: { $0.contains("#") || $0.isEmpty }) {
                throw ConfigurationError(
                    field: "\(field).redirectURIs[\(position)]",
                    "\"\(client.redirectURIs[position])\" is empty or has a fragment (RFC 6749 §3.1.2)"
                )
            }
        }
        var usernames: Set<String> = []
        for (index, user) in users.enumerated() where user.username.isEmpty || !usernames.insert(user.username).inserted {
            throw ConfigurationError(field: "users[\(index)].username", "\"\(user.username)\" is empty or repeated")
        }
    }
}

/// What a refresh does to the refresh token it was given (`refreshTokenRotation` in oauth.json).
public enum RefreshTokenRotation: String, Sendable, Hashable, Codable, CaseIterable {
    /// A new refresh token each time; the previous one keeps working until the new one is first used (or
    /// `refreshTokenGraceSeconds` pass), then its reuse revokes the family. What Google's account-linking
    /// validation expects.
    case grace
    /// A new refresh token each time; the presented one is retired at once, and its reuse revokes the family.
    case strict
    /// No rotation: the same refresh token is returned.
    case off
}
