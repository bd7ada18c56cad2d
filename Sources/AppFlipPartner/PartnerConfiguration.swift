public import AppFlipConfiguration
public import AppFlipCore
public import AppFlipDaemon

/// The `"appflip"` handler's configuration in an `apps.d` file, decoded through the configuration loader
/// (strict keys, errors naming the field) and validated at load.
///
/// ```json
/// "handler": {"appflip": {
///   "clientIDs": ["appflip-demo-client"],
///   "authorization": {"embedded": {"user": "alice"}},
///   "outcome": "approve"
/// }}
/// ```
public struct PartnerConfiguration: Sendable {
    /// Where step 3's code comes from.
    public enum AuthorizationSource: Sendable {
        /// The embedded OAuth server in the same appflipd, as `user`, over loopback HTTP.
        case embedded(user: String)
        /// The partner's own authorization endpoint, called with `credential`.
        case remote(authorizeURL: String, credential: RemoteCredential?, timeout: Duration)
    }

    /// How a remote endpoint is told who is signed in; kept apart from `SessionCredential` so that this
    /// type does not depend on the HTTP client.
    public enum RemoteCredential: Sendable, Hashable {
        case cookie(String)
        case header(name: String, value: String)
        case bearer(String)
    }

    /// The checks a flip link must pass: expected client ids and allowed redirect URIs.
    public var policy: FlipPolicy
    /// Where the authorization code comes from: the embedded server or a remote /authorize.
    public var authorization: AuthorizationSource
    /// What the partner answers once the checks pass: a real code, or a scripted error to test Google's error path.
    public var outcome: ScriptedOutcome
    /// Sent as `error_description` with a scripted error outcome.
    public var errorDescription: String?
    /// The handler's whole time limit, link (or intent) to answer.
    public var timeout: Duration
    /// The checks an App Flip intent must pass (the `android` section); nil: the handler takes no intents.
    public var androidPolicy: AndroidFlipPolicy?

    /// Decodes and validates the handler's configuration; every error names its field (`handler.appflip.…`).
    public init(_ value: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) {
        self = try context.decode(PartnerConfiguration.self, from: value)
    }
}

extension PartnerConfiguration: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case clientIDs, redirectURIs, authorization, outcome, errorDescription, timeoutSeconds, android
    }

    /// Without `timeoutSeconds` the handler has the daemon's `execTimeoutSeconds`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        func error(_ key: CodingKeys, _ message: String) -> ConfigurationError {
            ConfigurationError(at: container.codingPath + [key], message)
        }

        guard container.contains(.clientIDs) else { throw error(.clientIDs, "is required: the client ids Google sends") }
        let clientIDs = try container.decodeStringList(forKey: .clientIDs)
        let allowlist: RedirectAllowlist
        if container.contains(.redirectURIs) {
            let uris = try container.decodeStringList(forKey: .redirectURIs)
            do throws(RedirectAllowlistError) {
                allowlist = try RedirectAllowlist(uris)
            } catch let refusal {
                throw error(.redirectURIs, "\(refusal)")
            }
        } else {
            allowlist = .appFlip
        }
        do {
            policy = try FlipPolicy(expectedClientIDs: clientIDs, allowedRedirectURIs: allowlist)
        } catch let refusal {
            throw error(.clientIDs, "\(refusal)")
        }

        guard container.contains(.authorization) else {
            throw error(.authorization, "is required: {\"embedded\": {\"user\": …}} or {\"remote\": {\"authorizeURL\": …}}")
        }
        authorization = try container.decode(AuthorizationSource.self, forKey: .authorization)

        if let name = try container.decodeIfPresent(String.self, forKey: .outcome) {
            guard let parsed = ScriptedOutcome(rawValue: name) else {
                throw error(.outcome, "\"\(name)\" is not one of \(ScriptedOutcome.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            outcome = parsed
        } else {
            outcome = .approve
        }
        errorDescription = try container.contains(.errorDescription) ? container.decodeNonEmptyString(forKey: .errorDescription) : nil
        if errorDescription != nil, outcome.flipError == nil {
            throw error(.errorDescription, "is only sent with the cancel, unrecoverable and invalid_request outcomes")
        }
        let daemon = decoder.handlerFactoryContext?.daemon ?? DaemonConfiguration()
        let seconds = try container.decodeSecondsIfPresent(forKey: .timeoutSeconds) ?? daemon.execTimeoutSeconds
        timeout = .milliseconds(Int64(seconds * 1000))
        androidPolicy = try container.decodeIfPresent(AndroidPartnerConfiguration.self, forKey: .android).map {
            AndroidFlipPolicy(callers: $0.callers, expectedClientIDs: clientIDs, allowedRedirectURIs: $0.redirectURIs)
        }
    }
}

/// `{"embedded": {"user": …}}` or `{"remote": {"authorizeURL": …, "credential": …, "timeoutSeconds": …}}`.
extension PartnerConfiguration.AuthorizationSource: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case embedded, remote
    }

    private enum EmbeddedKeys: String, CodingKey, CaseIterable {
        case user
    }

    private enum RemoteKeys: String, CodingKey, CaseIterable {
        case authorizeURL, credential, timeoutSeconds
    }

    /// Decodes `authorization`, refusing unknown keys and anything but exactly one of `embedded` or `remote`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let kind = container.allKeys.first else {
            throw ConfigurationError(at: decoder.codingPath, "must have exactly one key: embedded or remote")
        }
        switch kind {
        case .embedded:
            let embedded = try container.superDecoder(forKey: .embedded).strictContainer(keyedBy: EmbeddedKeys.self)
            guard embedded.contains(.user) else {
                throw ConfigurationError(at: embedded.codingPath + [EmbeddedKeys.user], "is required: the signed-in test user")
            }
            self = .embedded(user: try embedded.decodeNonEmptyString(forKey: .user))
        case .remote:
            let remote = try container.superDecoder(forKey: .remote).strictContainer(keyedBy: RemoteKeys.self)
            let url = try remote.decodeNonEmptyString(forKey: .authorizeURL)
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), !url.contains("#") else {
                throw ConfigurationError(at: remote.codingPath + [RemoteKeys.authorizeURL], "must be an http or https URL without a fragment")
            }
            let credential = try remote.decodeIfPresent(PartnerConfiguration.RemoteCredential.self, forKey: .credential)
            let seconds = try remote.decodeSecondsIfPresent(forKey: .timeoutSeconds) ?? 10
            self = .remote(authorizeURL: url, credential: credential, timeout: .milliseconds(Int64(seconds * 1000)))
        }
    }
}

/// `{"cookie": …}`, `{"bearer": …}` or `{"header": {"name": …, "value": …}}`.
extension PartnerConfiguration.RemoteCredential: Decodable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case cookie, header, bearer
    }

    private enum HeaderKeys: String, CodingKey, CaseIterable {
        case name, value
    }

    /// Decodes `credential`, refusing unknown keys and anything but exactly one kind.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let kind = container.allKeys.first else {
            throw ConfigurationError(at: decoder.codingPath, "must have exactly one key: cookie, header or bearer")
        }
        switch kind {
        case .cookie: self = .cookie(try container.decodeNonEmptyString(forKey: .cookie))
        case .bearer: self = .bearer(try container.decodeNonEmptyString(forKey: .bearer))
        case .header:
            let header = try container.superDecoder(forKey: .header).strictContainer(keyedBy: HeaderKeys.self)
            let name = try header.decodeNonEmptyString(forKey: .name)
            guard name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw ConfigurationError(at: header.codingPath + [HeaderKeys.name], "is not an HTTP header name")
            }
            self = .header(name: name, value: try header.decodeNonEmptyString(forKey: .value))
        }
    }
}
