/// The rules every platform's fetch of its hosted file meets: HTTPS, no redirect, 200, the content type, the
/// size. Each platform gives each its own id and words (`HostingPolicy.rules`); `HostingVerdict` judges them
/// all with one logic.
public enum HostingRule: Sendable, Hashable, CaseIterable {
    /// HTTPS with a certificate trusted for the host's name.
    case https
    /// Served at its URL: a redirect is not followed.
    case noRedirect
    /// Answered with 200 OK.
    case status
    /// Served as `application/json`.
    case contentType
    /// At most the platform's size.
    case size
}

/// One platform's rule for each `HostingRule`, in the order reports list them.
public struct HostingRules: Sendable, Hashable {
    public let https: HostedRule
    public let noRedirect: HostedRule
    public let status: HostedRule
    public let contentType: HostedRule
    public let size: HostedRule

    /// The platform's rule for `rule`.
    public subscript(rule: HostingRule) -> HostedRule {
        switch rule {
        case .https: https
        case .noRedirect: noRedirect
        case .status: status
        case .contentType: contentType
        case .size: size
        }
    }

    /// Every rule, in `HostingRule`'s order.
    public var all: [HostedRule] { HostingRule.allCases.map { self[$0] } }
}

/// How a platform fetches and judges its hosted file: where it lives, the most it reads, what the content
/// type decides, and the words each failure ends with. iOS: `HostingPolicy.aasa`; Android: `.assetLinks`.
public struct HostingPolicy: Sendable, Hashable {
    /// The platform's id and words for each hosting rule.
    public let rules: HostingRules
    /// The file's path on its host, e.g. `/.well-known/assetlinks.json`.
    public let wellKnownPath: String
    /// The size rule's limit: a larger file breaks it.
    public let maximumSize: Int
    /// The most body bytes appflip reads of one file, its own bound: past it reading stops. The size rule's
    /// limit where the platform reads nothing past it (iOS); more where a verifier reads on (Android 12+'s
    /// StatementService reads a body sent without a `Content-Length` whole), so that appflip reads as far as
    /// the verifier would, within its own bound. A body over `maximumSize` still breaks the size rule.
    public let readLimit: Int
    /// The most files fetched, the host's own and the ones it includes.
    public let fileBudget: Int
    /// True when a wrong content type keeps the file from being used at all (iOS): the body of an answer that
    /// is not 200 `application/json` is then not read, and the size is judged after the type. False when it
    /// concerns one verifier only (Android: Google's): every answer's body is read, and the type is judged last.
    public let contentTypeIsRequired: Bool
    /// What each failure's evidence ends with: who refuses what was seen.
    public let consequences: Consequences

    /// The clause after each failure's evidence, e.g. `iOS follows no redirect`.
    public struct Consequences: Sendable, Hashable {
        public let redirect: String
        public let status: String
        public let contentType: String
        /// After a body over the size rule's limit, declared by its `Content-Length`.
        public let size: String
        /// After a body over the size rule's limit sent without a `Content-Length`.
        public let sizeSent: String
    }

    /// The order a fetch meets the rules in: a failure at one leaves the later ones unjudged.
    public var order: [HostingRule] {
        contentTypeIsRequired ? [.https, .noRedirect, .status, .contentType, .size] : [.https, .noRedirect, .status, .size, .contentType]
    }

    /// Whether the platform reads the body of an answer with `status` and `contentType`.
    public func readsBody(status: Int, contentType: String?) -> Bool {
        !contentTypeIsRequired || (status == 200 && HostResponse(status: status, contentType: contentType).isJSON)
    }

    /// `https://HOST[:PORT]/.well-known/…`; the port only for a local test server, devices always use 443.
    public func wellKnownURL(host: String, port: Int? = nil) -> String {
        "https://\(host)\(port.map { ":\($0)" } ?? "")\(wellKnownPath)"
    }
}
