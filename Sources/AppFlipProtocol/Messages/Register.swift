public import AppFlipCore

/// `register`: the connection becomes a live app until it closes.
public struct RegisterRequest: Sendable, Hashable, Codable {
    /// The longest `register` line the daemon reads, whatever `maxLineBytes` allows: Apple's 128 KiB limit on
    /// an association, plus 64 KiB for the app id, the domains and whitespace. A longer one is refused by its
    /// size before it is parsed.
    public static let maxLineBytes = 192 << 10

    /// `TEAMID.bundle.id`, as in an AASA `appIDs` entry.
    public var appID: String
    /// `applinks:host` or `applinks:*.host` entries.
    public var domains: [String]
    /// A whole apple-app-site-association document. Give this or `components`.
    public var association: JSONValue?
    /// The app's `components` only; the daemon wraps them in a document with one `details` entry for `appID`.
    public var components: [JSONValue]?
    /// The app's Android identity: the package it acts as when it starts intents, and the activities
    /// intents reach it through. With it, `domains` may be empty and the association left out: an app
    /// that only speaks intents claims no links.
    public var android: AndroidIdentity?

    /// Creates the request; give `association` or `components`, unless `android` is given and `domains` empty.
    public init(
        appID: String,
        domains: [String],
        association: JSONValue? = nil,
        components: [JSONValue]? = nil,
        android: AndroidIdentity? = nil
    ) {
        self.appID = appID
        self.domains = domains
        self.association = association
        self.components = components
        self.android = android
    }

    private enum CodingKeys: String, CodingKey {
        case appID, domains, association, components, android
    }

    /// Decodes the request, holding `association` to its type, an object, like every other field: a value of
    /// another JSON type is the request's mistake (`invalid_request`), and only a document that the AASA
    /// loader refuses is `invalid_association`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appID = try container.decode(String.self, forKey: .appID)
        android = try container.decodeIfPresent(AndroidIdentity.self, forKey: .android)
        // An Android-only app claims no links; every other app must say which.
        if android == nil {
            domains = try container.decode([String].self, forKey: .domains)
        } else {
            domains = try container.decodeIfPresent([String].self, forKey: .domains) ?? []
        }
        association = try container.decodeIfPresent(JSONValue.self, forKey: .association)
        switch association {
        case nil, .object?: break
        case .some:
            throw DecodingError.typeMismatch(
                [String: JSONValue].self,
                .init(codingPath: container.codingPath + [CodingKeys.association], debugDescription: "`association` must be an object")
            )
        }
        components = try container.decodeIfPresent([JSONValue].self, forKey: .components)
    }
}

/// The reply to `register`.
public struct RegisterResult: Sendable, Hashable, Codable {
    /// The app id now registered on this connection.
    public var appID: String
    /// The `applinks:` entries it claims.
    public var domains: [String]
    /// What the AASA loader warned about; the registration stands.
    public var warnings: [String]

    /// Creates the reply.
    public init(appID: String, domains: [String], warnings: [String]) {
        self.appID = appID
        self.domains = domains
        self.warnings = warnings
    }
}
