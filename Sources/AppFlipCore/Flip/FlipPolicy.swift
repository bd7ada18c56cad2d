/// The one place that decides what a partner app does with a flip link.
///
/// Checks run in a fixed order, and the first failing group decides:
/// 1. `redirect_uri`: exactly once, UTF-8, and allowed by the allowlist, or decline. Nothing is ever sent to
///    an unverified URI, so this comes first.
/// 2. `client_id`: exactly once, UTF-8, non-empty, and byte-for-byte an expected id, or decline (seed step 4:
///    the sample returns `false`).
/// 3. `state` and `scope`: each exactly once, UTF-8 and non-empty, scope tokens per RFC 6749 §3.3, or
///    `invalid_request` to the verified redirect URI, listing every problem of both.
/// 4. Otherwise proceed.
public struct FlipPolicy: Sendable {
    /// The partner's OAuth client ids that Google may send as `client_id`; compared byte for byte.
    public let expectedClientIDs: [String]
    /// The redirect URIs the partner may send its result to; by default the 12 App Flip URIs.
    public let allowedRedirectURIs: RedirectAllowlist

    /// - Throws: when `expectedClientIDs` is empty or holds an empty id: such a policy could never proceed,
    ///   or would match a link whose `client_id` is empty.
    public init(
        expectedClientIDs: [String],
        allowedRedirectURIs: RedirectAllowlist = .appFlip
    ) throws(FlipPolicyError) {
        guard !expectedClientIDs.isEmpty else { throw .noClientIDs }
        if let index = expectedClientIDs.firstIndex(where: \.isEmpty) { throw .emptyClientID(index: index) }
        self.expectedClientIDs = expectedClientIDs
        self.allowedRedirectURIs = allowedRedirectURIs
    }

    /// Parses `url` as a flip link and decides it; see `decide(_:)` on a `FlipLink`.
    public func decide(_ url: RawURL) -> FlipDecision {
        decide(FlipLink(url))
    }

    /// Decides a parsed flip link by the checks above, in their order.
    public func decide(_ link: FlipLink) -> FlipDecision {
        let redirectProblems = link.problems(of: .redirectURI)
        guard redirectProblems.isEmpty, let redirectString = link.redirectURI else {
            return .decline(.redirectURI(redirectProblems.first ?? FlipLinkProblem(.redirectURI, .missing)))
        }
        let redirectURI: AllowedRedirectURI
        switch allowedRedirectURIs.check(redirectString) {
        case .failure(let refusal): return .decline(.redirectURINotAllowed(refusal))
        case .success(let allowed): redirectURI = allowed
        }

        let clientIDProblems = link.problems(of: .clientID)
        guard clientIDProblems.isEmpty, let clientID = link.clientID else {
            return .decline(.clientID(clientIDProblems.first ?? FlipLinkProblem(.clientID, .missing)))
        }
        guard expectedClientIDs.contains(where: { $0.isIdentical(to: clientID) }) else {
            return .decline(.clientIDNotExpected)
        }

        let remaining = link.problems(of: .state) + link.problems(of: .scope)
        guard remaining.isEmpty, let state = link.state else {
            return .invalidRequest(
                redirectURI: redirectURI,
                state: link.state,
                description: "Invalid request: " + remaining.map(\.description).joined(separator: "; ")
            )
        }
        return .proceed(FlipRequest(clientID: clientID, scopes: link.scopes, state: state, redirectURI: redirectURI))
    }
}

/// What a partner app does with a flip link: exactly one of three outcomes.
public enum FlipDecision: Sendable, Hashable {
    /// Every check passed: obtain an authorization code for this request.
    case proceed(FlipRequest)
    /// The redirect URI and client id are verified but another parameter is missing or invalid: open the
    /// redirect URI with `error=invalid_request` (seed; RFC 6749 §4.1.2.1). `state` is echoed when exactly
    /// one valid UTF-8 state was received, even an empty one.
    case invalidRequest(redirectURI: AllowedRedirectURI, state: String?, description: String)
    /// Open nothing at all: the redirect URI or client id cannot be trusted (seed sample returns `false`;
    /// RFC 6749 §4.1.2.1: never redirect to an unverified URI).
    case decline(DeclineReason)

    /// The result URL to open for `.invalidRequest`; `nil` for the other outcomes.
    public var invalidRequestResultURL: String? {
        guard case .invalidRequest(let redirectURI, let state, let description) = self else { return nil }
        return FlipResult.error(.invalidRequest, description: description, state: state).url(appendingTo: redirectURI)
    }
}

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

/// Why a policy cannot be built.
public enum FlipPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    case noClientIDs
    case emptyClientID(index: Int)

    /// A sentence for the configuration error.
    public var description: String {
        switch self {
        case .noClientIDs: "no expected client id is configured, so every flip link would be declined"
        case .emptyClientID(let index): "expected client id \(index) is empty"
        }
    }
}
