public import AppFlipCore

/// One registered app, as `apps` lists it.
public struct AppInfo: Sendable, Hashable, Codable {
    /// `static` for an `apps.d` file, `live` for a registered connection.
    public enum Kind: String, Sendable, Hashable, Codable {
        case `static`, live
    }

    /// `TEAMID.bundle.id`.
    public var appID: String
    /// Where the app came from.
    public var kind: Kind
    /// The app's `applinks:` entries, as registered.
    public var domains: [String]
    /// `exec`, `builtin:accept`, `live`, or another handler kind.
    public var handler: String
    /// For static apps, the `apps.d` file it came from.
    public var source: String?
    /// For live apps, who registered it.
    public var peer: PeerInfo?
    /// The app's Android identity: package, signing fingerprints, activities.
    public var android: AndroidIdentity?
    /// Its link hosts' verification states on the device the daemon plays; written inside `android`.
    public var domainVerification: DomainVerificationStates?
    /// For a static app whose file names an artifact: the artifact its Android identity was read from.
    public var artifact: AppArtifact?

    /// Creates an entry; `source` is for static apps, `peer` for live ones.
    public init(
        appID: String,
        kind: Kind,
        domains: [String],
        handler: String,
        source: String? = nil,
        peer: PeerInfo? = nil,
        android: AndroidIdentity? = nil,
        domainVerification: DomainVerificationStates? = nil,
        artifact: AppArtifact? = nil
    ) {
        self.appID = appID
        self.kind = kind
        self.domains = domains
        self.handler = handler
        self.source = source
        self.peer = peer
        self.android = android
        self.domainVerification = domainVerification
        self.artifact = artifact
    }

    private enum CodingKeys: String, CodingKey {
        case appID, kind, domains, handler, source, peer, android, artifact
    }

    /// The `android` member: the identity's own members and `domainVerification` beside them.
    private struct AndroidMember: Codable {
        var identity: AndroidIdentity
        var domainVerification: DomainVerificationStates?

        private enum CodingKeys: String, CodingKey {
            case domainVerification
        }

        init(identity: AndroidIdentity, domainVerification: DomainVerificationStates?) {
            self.identity = identity
            self.domainVerification = domainVerification
        }

        init(from decoder: any Decoder) throws {
            identity = try AndroidIdentity(from: decoder)
            domainVerification = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
                DomainVerificationStates.self,
                forKey: .domainVerification
            )
        }

        func encode(to encoder: any Encoder) throws {
            try identity.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(domainVerification, forKey: .domainVerification)
        }
    }

    /// Decodes an entry; `android.domainVerification` is optional, as older daemons do not send it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appID = try container.decode(String.self, forKey: .appID)
        kind = try container.decode(Kind.self, forKey: .kind)
        domains = try container.decode([String].self, forKey: .domains)
        handler = try container.decode(String.self, forKey: .handler)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        peer = try container.decodeIfPresent(PeerInfo.self, forKey: .peer)
        let android = try container.decodeIfPresent(AndroidMember.self, forKey: .android)
        self.android = android?.identity
        domainVerification = android?.domainVerification
        artifact = try container.decodeIfPresent(AppArtifact.self, forKey: .artifact)
    }

    /// Encodes the entry, `nil` members left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appID, forKey: .appID)
        try container.encode(kind, forKey: .kind)
        try container.encode(domains, forKey: .domains)
        try container.encode(handler, forKey: .handler)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(peer, forKey: .peer)
        try container.encodeIfPresent(android.map { AndroidMember(identity: $0, domainVerification: domainVerification) }, forKey: .android)
        try container.encodeIfPresent(artifact, forKey: .artifact)
    }
}

/// The build artifact a static app's Android identity was read from (`appflip app inspect`).
public struct AppArtifact: Sendable, Hashable, Codable {
    /// The artifact's path, as the app file names it, resolved against the app file's directory.
    public var file: String
    /// `apk`, `aab`, `binary-manifest`, `proto-manifest` or `source-manifest`, as `app inspect --json` names it.
    public var kind: String

    /// Creates the entry.
    public init(file: String, kind: String) {
        self.file = file
        self.kind = kind
    }
}

/// An `apps.d` file the daemon refused on its own while serving the others: one whose artifact could not be
/// read, or disagrees with what the file writes by hand.
public struct RefusedApp: Sendable, Hashable, Codable {
    /// The app file.
    public var source: String
    /// The member at fault (`artifact`, `android.intentFilters`), when one is.
    public var field: String?
    /// Why, in users' words.
    public var message: String

    /// Creates the entry.
    public init(source: String, field: String?, message: String) {
        self.source = source
        self.field = field
        self.message = message
    }
}

/// An app's link hosts as `adb shell pm get-app-links PACKAGE` shows them, on the device the daemon plays
/// (`appflipd.json`'s `android`): each host the generation verifies, with the configured verifier's state for
/// it (`verified`, `none`, or the verifier's code, 1024 and up) and why; on Android 6–11, which verify an app
/// for all its hosts or none, also the app's one status as `pm get-app-link PACKAGE` prints it.
public struct DomainVerificationStates: Sendable, Hashable, Codable {
    /// One host and its state.
    public struct Host: Sendable, Hashable, Codable {
        /// The manifest host, lower-cased, as written (`*.example.com`).
        public var host: String
        /// `verified`, `none`, or the verifier's failure code.
        public var state: String
        /// Why, in words: the statement that verified it, or what failed.
        public var reason: String

        /// Creates a host's state.
        public init(host: String, state: String, reason: String) {
            self.host = host
            self.state = state
            self.reason = reason
        }
    }

    /// `google` or `statementService`.
    public var verifier: String
    /// 11 (6 to 11), 12 (12 to 14) or 15 (15 and later).
    public var generation: Int
    /// Android 6–11 only: `always`, `ask` or `undefined`.
    public var status: String?
    /// The hosts the generation verifies for the app, in filter order.
    public var hosts: [Host]

    /// Creates the states.
    public init(verifier: String, generation: Int, status: String? = nil, hosts: [Host]) {
        self.verifier = verifier
        self.generation = generation
        self.status = status
        self.hosts = hosts
    }
}

/// The reply to `apps`.
public struct AppsResult: Sendable, Hashable, Codable {
    /// Static apps first, then live apps, each sorted by app id.
    public var apps: [AppInfo]
    /// The app files refused on their own at the last load, in file-name order; written only when there are some.
    public var refused: [RefusedApp]

    /// Creates the reply.
    public init(apps: [AppInfo], refused: [RefusedApp] = []) {
        self.apps = apps
        self.refused = refused
    }

    private enum CodingKeys: String, CodingKey {
        case apps, refused
    }

    /// Decodes the reply; `refused` is optional, as older daemons do not send it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apps = try container.decode([AppInfo].self, forKey: .apps)
        refused = try container.decodeIfPresent([RefusedApp].self, forKey: .refused) ?? []
    }

    /// Encodes the reply, `refused` only when an app file was refused.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(apps, forKey: .apps)
        if !refused.isEmpty { try container.encode(refused, forKey: .refused) }
    }
}
