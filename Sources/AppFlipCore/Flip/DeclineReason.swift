/// Why a flip link is declined without any redirect.
public enum DeclineReason: Sendable, Hashable, CustomStringConvertible {
    /// `redirect_uri` is missing, empty, repeated or not UTF-8.
    case redirectURI(FlipLinkProblem)
    case redirectURINotAllowed(RedirectRefusal)
    /// `client_id` is missing, empty, repeated or not UTF-8.
    case clientID(FlipLinkProblem)
    /// `client_id` is not byte-for-byte one of the expected ids. The value is not repeated here.
    case clientIDNotExpected

    /// A sentence for the log; it repeats no parameter value.
    public var description: String {
        switch self {
        case .redirectURI(let problem): "declined without a redirect: \(problem)"
        case .redirectURINotAllowed(let refusal): "declined without a redirect: redirect_uri is not allowed: \(refusal)"
        case .clientID(let problem): "declined without a redirect: \(problem)"
        case .clientIDNotExpected: "declined without a redirect: client_id is not one of the expected client ids"
        }
    }
}
