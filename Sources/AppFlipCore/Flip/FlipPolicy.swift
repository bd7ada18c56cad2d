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
