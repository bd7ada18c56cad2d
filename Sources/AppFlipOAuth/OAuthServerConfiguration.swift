import FoundationEssentials

/// Everything the embedded authorization server serves, as read from `Config/oauth.json`.
public struct OAuthServerConfiguration: Sendable, Hashable, Codable {
    /// 8471 (what the systemd units proxy) unless configured; 0 binds an ephemeral port (tests).
    public static let defaultPort = 8471

    /// The loopback address the server binds. Anything but 127.0.0.1 or ::1 is refused by `validate()`.
    public var host: String
    public var port: Int
    /// Seconds an authorization code stays redeemable. RFC 6749 §4.1.2 recommends at most 600.
    public var authorizationCodeLifetime: Int
    public var accessTokenLifetime: Int
    public var clients: [RegisteredClient]
    public var users: [TestUser]

    public init(
        host: String = "127.0.0.1",
        port: Int = OAuthServerConfiguration.defaultPort,
        authorizationCodeLifetime: Int = 60,
        accessTokenLifetime: Int = 3600,
        clients: [RegisteredClient],
        users: [TestUser]
    ) {
        self.host = host
        self.port = port
        self.authorizationCodeLifetime = authorizationCodeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.clients = clients
        self.users = users
    }

    enum CodingKeys: String, CodingKey {
        case host, port, clients, users
        case authorizationCodeLifetime = "authorization_code_lifetime"
        case accessTokenLifetime = "access_token_lifetime"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            host: try container.decodeIfPresent(String.self, forKey: .host) ?? "127.0.0.1",
            port: try container.decodeIfPresent(Int.self, forKey: .port) ?? Self.defaultPort,
            authorizationCodeLifetime: try container.decodeIfPresent(Int.self, forKey: .authorizationCodeLifetime) ?? 60,
            accessTokenLifetime: try container.decodeIfPresent(Int.self, forKey: .accessTokenLifetime) ?? 3600,
            clients: try container.decode([RegisteredClient].self, forKey: .clients),
            users: try container.decode([TestUser].self, forKey: .users)
        )
    }

    /// Reads and validates a configuration file.
    public static func load(from path: String) throws(ConfigurationError) -> OAuthServerConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch {
            throw ConfigurationError("\(path): cannot be read: \(error)")
        }
        let configuration: OAuthServerConfiguration
        do {
            configuration = try JSONDecoder().decode(OAuthServerConfiguration.self, from: data)
        } catch {
            throw ConfigurationError("\(path): not a valid OAuth server configuration: \(error)")
        }
        try configuration.validate()
        return configuration
    }

    /// Refuses configurations the server could not serve safely. Secrets are never quoted in the reason.
    public func validate() throws(ConfigurationError) {
        guard host == "127.0.0.1" || host == "::1" else {
            throw ConfigurationError("host \(host) is not loopback: the embedded server only serves 127.0.0.1 or ::1")
        }
        guard (0...65535).contains(port) else { throw ConfigurationError("port \(port) is out of range") }
        guard (1...600).contains(authorizationCodeLifetime) else {
            throw ConfigurationError("authorization_code_lifetime must be 1...600 seconds (RFC 6749 §4.1.2)")
        }
        guard accessTokenLifetime >= 1 else { throw ConfigurationError("access_token_lifetime must be positive") }
        guard !clients.isEmpty else { throw ConfigurationError("no clients are configured") }
        var clientIDs: Set<String> = []
        for client in clients {
            guard !client.id.isEmpty, clientIDs.insert(client.id).inserted else {
                throw ConfigurationError("client id \"\(client.id)\" is empty or repeated")
            }
            guard client.secret.utf8.count >= 16 else {
                throw ConfigurationError("client \(client.id): the secret must be at least 16 bytes")
            }
            guard !client.redirectURIs.isEmpty else {
                throw ConfigurationError("client \(client.id): no redirect_uris")
            }
            if let withFragment = client.redirectURIs.first(where: { $0.contains("#") || $0.isEmpty }) {
                throw ConfigurationError("client \(client.id): redirect URI \"\(withFragment)\" is empty or has a fragment (RFC 6749 §3.1.2)")
            }
        }
        var usernames: Set<String> = []
        for user in users where user.username.isEmpty || !usernames.insert(user.username).inserted {
            throw ConfigurationError("username \"\(user.username)\" is empty or repeated")
        }
    }
}

public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A confidential OAuth client: it authenticates at /token with its secret.
public struct RegisteredClient: Sendable, Hashable, Codable, CustomStringConvertible {
    public var id: String
    public var secret: String
    /// Compared byte for byte: no normalisation, no wildcards (RFC 9700 §2.1).
    public var redirectURIs: [String]
    /// Scopes the client may ask for; a request without `scope` is granted all of them.
    public var scopes: [String]

    public init(id: String, secret: String, redirectURIs: [String], scopes: [String]) {
        self.id = id
        self.secret = secret
        self.redirectURIs = redirectURIs
        self.scopes = scopes
    }

    enum CodingKeys: String, CodingKey {
        case id = "client_id"
        case secret = "client_secret"
        case redirectURIs = "redirect_uris"
        case scopes
    }

    /// Redacted: only the secret's fingerprint.
    public var description: String {
        "RegisteredClient(id: \(id), secret: sha256:\(Fingerprint.of(secret)), redirectURIs: \(redirectURIs.count))"
    }
}

/// A user who can be signed in. A disabled user's authorization is denied (`access_denied`), the way a
/// disabled account is in the App Flip seed.
public struct TestUser: Sendable, Hashable, Codable {
    public var username: String
    public var disabled: Bool

    public init(username: String, disabled: Bool = false) {
        self.username = username
        self.disabled = disabled
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        username = try container.decode(String.self, forKey: .username)
        disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled) ?? false
    }
}
