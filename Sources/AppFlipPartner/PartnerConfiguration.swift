import AppFlipCore
import AppFlipDaemon

/// The `"appflip"` handler's configuration in an `apps.d` file, validated at load.
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

    public var policy: FlipPolicy
    public var authorization: AuthorizationSource
    public var outcome: ScriptedOutcome
    /// Sent as `error_description` with a scripted error outcome.
    public var errorDescription: String?
    /// The handler's whole time limit, link to answer.
    public var timeout: Duration

    static let keys: Set<String> = ["clientIDs", "redirectURIs", "authorization", "outcome", "errorDescription", "timeoutSeconds"]

    /// Parses and validates `value`; every error names its field (`handler.appflip.…`).
    public init(_ value: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) {
        let field = Fields(file: context.file, prefix: "handler.appflip")
        let object = try field.object(value, "")
        if let unknown = object.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw field.error(unknown, "is not a key of the appflip handler (known: \(Self.keys.sorted().joined(separator: ", ")))")
        }

        guard let clientIDsValue = object["clientIDs"] else { throw field.error("clientIDs", "is required: the client ids Google sends") }
        let clientIDs = try field.strings(clientIDsValue, "clientIDs")
        let allowlist: RedirectAllowlist
        if let redirects = object["redirectURIs"] {
            let uris = try field.strings(redirects, "redirectURIs")
            do throws(RedirectAllowlistError) {
                allowlist = try RedirectAllowlist(uris)
            } catch {
                throw field.error("redirectURIs", "\(error)")
            }
        } else {
            allowlist = .appFlip
        }
        do {
            policy = try FlipPolicy(expectedClientIDs: clientIDs, allowedRedirectURIs: allowlist)
        } catch {
            throw field.error("clientIDs", "\(error)")
        }

        guard let authorizationValue = object["authorization"] else {
            throw field.error("authorization", "is required: {\"embedded\": {\"user\": …}} or {\"remote\": {\"authorizeURL\": …}}")
        }
        authorization = try Self.authorizationSource(authorizationValue, field: field)

        switch object["outcome"] {
        case nil: outcome = .approve
        case .string(let name)?:
            guard let parsed = ScriptedOutcome(rawValue: name) else {
                throw field.error("outcome", "\"\(name)\" is not one of \(ScriptedOutcome.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            outcome = parsed
        case let other?: throw field.error("outcome", "must be a string, not \(other.compactJSON)")
        }
        errorDescription = try object["errorDescription"].map { value throws(ConfigurationError) in try field.string(value, "errorDescription") }
        if errorDescription != nil, outcome.flipError == nil {
            throw field.error("errorDescription", "is only sent with the cancel, unrecoverable and invalid_request outcomes")
        }
        let seconds = try object["timeoutSeconds"].map { value throws(ConfigurationError) in try field.seconds(value, "timeoutSeconds") }
            ?? context.daemon.execTimeoutSeconds
        timeout = .milliseconds(Int64(seconds * 1000))
    }

    private static func authorizationSource(_ value: JSONValue, field: Fields) throws(ConfigurationError) -> AuthorizationSource {
        let object = try field.object(value, "authorization")
        guard object.count == 1, let (kind, body) = object.first else {
            throw field.error("authorization", "must have exactly one key: embedded or remote")
        }
        switch kind {
        case "embedded":
            let embedded = try field.object(body, "authorization.embedded")
            if let unknown = embedded.keys.first(where: { $0 != "user" }) {
                throw field.error("authorization.embedded.\(unknown)", "is not a key (known: user)")
            }
            guard let user = embedded["user"] else { throw field.error("authorization.embedded.user", "is required: the signed-in test user") }
            return .embedded(user: try field.string(user, "authorization.embedded.user"))
        case "remote":
            let remote = try field.object(body, "authorization.remote")
            let known: Set<String> = ["authorizeURL", "credential", "timeoutSeconds"]
            if let unknown = remote.keys.sorted().first(where: { !known.contains($0) }) {
                throw field.error("authorization.remote.\(unknown)", "is not a key (known: authorizeURL, credential, timeoutSeconds)")
            }
            guard let urlValue = remote["authorizeURL"] else { throw field.error("authorization.remote.authorizeURL", "is required") }
            let url = try field.string(urlValue, "authorization.remote.authorizeURL")
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), !url.contains("#") else {
                throw field.error("authorization.remote.authorizeURL", "must be an http or https URL without a fragment")
            }
            let credential = try remote["credential"].map { value throws(ConfigurationError) in try Self.credential(value, field: field) }
            let seconds = try remote["timeoutSeconds"].map { value throws(ConfigurationError) in
                try field.seconds(value, "authorization.remote.timeoutSeconds")
            } ?? 10
            return .remote(authorizeURL: url, credential: credential, timeout: .milliseconds(Int64(seconds * 1000)))
        default:
            throw field.error("authorization.\(kind)", "is not an authorization source (embedded or remote)")
        }
    }

    private static func credential(_ value: JSONValue, field: Fields) throws(ConfigurationError) -> RemoteCredential {
        let name = "authorization.remote.credential"
        let object = try field.object(value, name)
        guard object.count == 1, let (kind, body) = object.first else {
            throw field.error(name, "must have exactly one key: cookie, header or bearer")
        }
        switch kind {
        case "cookie": return .cookie(try field.string(body, "\(name).cookie"))
        case "bearer": return .bearer(try field.string(body, "\(name).bearer"))
        case "header":
            let header = try field.object(body, "\(name).header")
            guard header.count == 2, let headerName = header["name"], let headerValue = header["value"] else {
                throw field.error("\(name).header", "must be {\"name\": …, \"value\": …}")
            }
            let parsedName = try field.string(headerName, "\(name).header.name")
            guard parsedName.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else {
                throw field.error("\(name).header.name", "is not an HTTP header name")
            }
            return .header(name: parsedName, value: try field.string(headerValue, "\(name).header.value"))
        default:
            throw field.error("\(name).\(kind)", "is not a credential (cookie, header or bearer)")
        }
    }
}

/// Typed access to a JSON configuration value, with errors naming `prefix.field`. Values are never quoted
/// in errors where they could be secrets.
private struct Fields {
    var file: String
    var prefix: String

    func error(_ field: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, field: field.isEmpty ? prefix : "\(prefix).\(field)", message)
    }

    func object(_ value: JSONValue, _ field: String) throws(ConfigurationError) -> [String: JSONValue] {
        guard case .object(let object) = value else { throw error(field, "must be an object") }
        return object
    }

    func string(_ value: JSONValue, _ field: String) throws(ConfigurationError) -> String {
        guard case .string(let string) = value, !string.isEmpty else { throw error(field, "must be a non-empty string") }
        return string
    }

    /// A string or an array of strings, never empty.
    func strings(_ value: JSONValue, _ field: String) throws(ConfigurationError) -> [String] {
        switch value {
        case .string(let string): return [try self.string(.string(string), field)]
        case .array(let array) where !array.isEmpty:
            var strings: [String] = []
            for (index, element) in array.enumerated() { strings.append(try self.string(element, "\(field)[\(index)]")) }
            return strings
        default: throw error(field, "must be a string or a non-empty array of strings")
        }
    }

    func seconds(_ value: JSONValue, _ field: String) throws(ConfigurationError) -> Double {
        guard case .number(let seconds) = value, seconds > 0, seconds <= 3600 else {
            throw error(field, "must be a number of seconds, more than 0 and at most 3600")
        }
        return seconds
    }
}
