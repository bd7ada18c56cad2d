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
    /// `android.assetLinks`: the statement list (a Digital Asset Links document) of each App Links host of
    /// the app, by host, standing for what `https://HOST/.well-known/assetlinks.json` serves.
    public var assetLinks: [String: JSONValue]

    /// Creates the request; give `association` or `components`, unless `android` is given and `domains` empty.
    public init(
        appID: String,
        domains: [String],
        association: JSONValue? = nil,
        components: [JSONValue]? = nil,
        android: AndroidIdentity? = nil,
        assetLinks: [String: JSONValue] = [:]
    ) {
        self.appID = appID
        self.domains = domains
        self.association = association
        self.components = components
        self.android = android
        self.assetLinks = assetLinks
    }

    private enum AndroidKeys: String, CodingKey {
        case assetLinks
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
        if android != nil {
            let androidContainer = try container.nestedContainer(keyedBy: AndroidKeys.self, forKey: .android)
            assetLinks = try androidContainer.decodeIfPresent([String: JSONValue].self, forKey: .assetLinks) ?? [:]
        } else {
            assetLinks = [:]
        }
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

    /// Encodes the request, with `assetLinks` inside `android`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appID, forKey: .appID)
        try container.encode(domains, forKey: .domains)
        try container.encodeIfPresent(association, forKey: .association)
        try container.encodeIfPresent(components, forKey: .components)
        if let android {
            try container.encode(AndroidObject(identity: android, assetLinks: assetLinks), forKey: .android)
        }
    }

    /// The `android` object: the identity's keys and `assetLinks` side by side.
    private struct AndroidObject: Encodable {
        var identity: AndroidIdentity
        var assetLinks: [String: JSONValue]

        func encode(to encoder: any Encoder) throws {
            try identity.encode(to: encoder)
            guard !assetLinks.isEmpty else { return }
            var container = encoder.container(keyedBy: AndroidKeys.self)
            try container.encode(assetLinks, forKey: .assetLinks)
        }
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
