/// The query parameters of an incoming App Flip universal link (seed: "When opened by the Google app, your
/// app's universal link includes the following query parameters").
///
/// Parsing never fails: it keeps each parameter that occurs exactly once and lists every problem, so that
/// `FlipPolicy` can decide and the user can see all of them at once. Values are form-decoded (`+` is a
/// space, then `%XX`), because Google's iOS tester joins scopes with `+` while others send `%20`.
/// Parameters other than the four are ignored (RFC 6749 §3.1).
public struct FlipLink: Sendable, Hashable {
    /// The four parameters App Flip defines.
    public enum Parameter: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case redirectURI = "redirect_uri"
        case clientID = "client_id"
        case state
        case scope

        /// The parameter's name on the wire, e.g. `redirect_uri`.
        public var description: String { rawValue }
    }

    /// The flip link as received, undecoded.
    public let url: RawURL
    /// The decoded value of each parameter that occurs exactly once and is valid UTF-8; it may be empty.
    public let values: [Parameter: String]
    /// Every problem, ordered by parameter as `Parameter.allCases` lists them.
    public let problems: [FlipLinkProblem]

    /// `client_id`: the partner's OAuth client id Google registered, when usable.
    public var clientID: String? { values[.clientID] }
    /// `state`: Google's opaque value, echoed unchanged in the result link (RFC 6749 §4.1.2), when usable.
    public var state: String? { values[.state] }
    /// `redirect_uri`: where the result goes, decoded but not yet checked against the allowlist.
    public var redirectURI: String? { values[.redirectURI] }
    /// The scope value split on spaces; empty when there is no usable scope.
    public var scopes: [String] {
        values[.scope].map { $0.split(separator: " ").map(String.init) } ?? []
    }

    /// Reads the link's query: every parameter's value and every problem. It never fails; ``FlipPolicy`` judges.
    public init(_ url: RawURL) {
        self.url = url
        var occurrences: [Parameter: [String?]] = [:]
        for field in QueryField.fields(of: url.query ?? "") {
            guard let name = field.name, let parameter = Parameter(rawValue: name) else { continue }
            occurrences[parameter, default: []].append(field.value)
        }
        var values: [Parameter: String] = [:]
        var problems: [FlipLinkProblem] = []
        for parameter in Parameter.allCases {
            let found = occurrences[parameter] ?? []
            guard found.count == 1 else {
                problems.append(FlipLinkProblem(parameter, found.isEmpty ? .missing : .duplicated(count: found.count)))
                continue
            }
            guard let value = found[0] else {
                problems.append(FlipLinkProblem(parameter, .notUTF8))
                continue
            }
            values[parameter] = value
            if value.isEmpty {
                problems.append(FlipLinkProblem(parameter, .empty))
            } else if parameter == .scope, let problem = Self.scopeProblem(value) {
                problems.append(FlipLinkProblem(parameter, problem))
            }
        }
        self.values = values
        self.problems = problems
    }

    /// The problems of one parameter.
    public func problems(of parameter: Parameter) -> [FlipLinkProblem] {
        problems.filter { $0.parameter == parameter }
    }

    /// RFC 6749 §3.3: `scope = scope-token *( SP scope-token )`, `scope-token = 1*NQCHAR`.
    private static func scopeProblem(_ scope: String) -> FlipLinkProblem.Kind? {
        if scope.split(separator: " ", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            return .emptyScopeToken
        }
        let isNQCHAR: (UInt8) -> Bool = { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
        if scope.utf8.contains(where: { $0 != UInt8(ascii: " ") && !isNQCHAR($0) }) {
            return .invalidScopeCharacter
        }
        return nil
    }

    /// The link a Google app opens: `partnerLink` with the four parameters appended, each strictly
    /// percent-encoded, scopes joined with a space (sent as `%20`). A fragment of `partnerLink` stays last.
    public static func link(
        to partnerLink: RawURL,
        clientID: String,
        scopes: [String],
        state: String,
        redirectURI: String
    ) -> String {
        let parameters = FormEncoding.encode([
            (Parameter.clientID.rawValue, clientID), (Parameter.scope.rawValue, scopes.joined(separator: " ")),
            (Parameter.state.rawValue, state), (Parameter.redirectURI.rawValue, redirectURI),
        ])
        var link = partnerLink.string
        var fragment = ""
        if let hash = link.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(link[hash...])
            link = String(link[..<hash])
        }
        switch partnerLink.query {
        case nil: link += "?"
        case ""?: break
        default: link += "&"
        }
        return link + parameters + fragment
    }
}

/// A flip link that passed every check.
public struct FlipRequest: Sendable, Hashable {
    /// Byte-for-byte one of the policy's expected client ids.
    public let clientID: String
    /// The scopes, in the order received; never empty.
    public let scopes: [String]
    /// The nonce to echo byte for byte; never empty.
    public let state: String
    /// The verified redirect URI: the only place the result may go.
    public let redirectURI: AllowedRedirectURI

    /// What to ask the partner's OAuth2 server for (step 3).
    public var authorizationRequest: AuthorizationRequest {
        AuthorizationRequest(clientID: clientID, redirectURI: redirectURI.string, scopes: scopes)
    }
}

/// One `name=value` pair of a query string, split as `FormEncoding` splits it, then form-decoded.
struct QueryField: Sendable, Hashable {
    /// The decoded name; `nil` when it is not valid UTF-8 after decoding.
    let name: String?
    /// The decoded value (empty when there is no `=`); `nil` when it is not valid UTF-8 after decoding.
    let value: String?
    /// The value exactly as written, for diagnostics such as a literal `+`.
    let rawValue: Substring

    /// Every field of `query`, in order. Empty segments (`a=1&&b=2`) are skipped, as browsers do.
    static func fields(of query: String) -> [QueryField] {
        FormEncoding.fields(of: query.utf8).map { name, value in
            QueryField(
                name: PercentEncoding.formDecode(Substring(name)),
                value: PercentEncoding.formDecode(Substring(value)),
                rawValue: Substring(value)
            )
        }
    }
}
