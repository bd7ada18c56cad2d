/// The one place that decides what a partner app does with an App Flip intent (App Flip for Android,
/// "Modify your Android app": validate the calling app, then the client id).
///
/// Checks run in a fixed order, and the first that fails decides:
/// 1. The caller: started for a result (else `getCallingActivity()` is null and nobody can be verified), by an
///    allowed package, signed by a certificate allowed for that package. Any of the caller's certificates
///    counts, not only `signatures[0]`, so that a key rotation does not lock Google out. A caller that fails
///    gets `RESULT_CANCELED` and nothing else: no answer is owed to an app that is not Google's.
/// 2. `CLIENT_ID`: a `String`, byte for byte one of the expected ids, else error type 3.
/// 3. `SCOPE`: a `String[]` of RFC 6749 §3.3 scope tokens, at least one, else error type 3.
/// 4. `REDIRECT_URI`: a non-empty `String`, allowed by the allowlist when there is one, else error type 3.
/// 5. Otherwise proceed: ask the authorization server for a code.
public struct AndroidFlipPolicy: Sendable {
    /// The apps that may start the flip, each with the signing certificates allowed for it.
    public let callers: [AndroidCaller]
    /// The partner's OAuth client ids Google may send as `CLIENT_ID`.
    public let expectedClientIDs: [String]
    /// The `REDIRECT_URI`s allowed, exactly; nil takes any non-empty one (the authorization server checks it
    /// against the client's registration).
    public let allowedRedirectURIs: [String]?

    /// Creates the policy; callers, client ids and redirect URIs are compared exactly.
    public init(callers: [AndroidCaller], expectedClientIDs: [String], allowedRedirectURIs: [String]? = nil) {
        self.callers = callers
        self.expectedClientIDs = expectedClientIDs
        self.allowedRedirectURIs = allowedRedirectURIs
    }

    /// Decides one start of the App Flip activity by the checks above, in their order.
    public func decide(_ intent: Intent, caller: AndroidCaller?, forResult: Bool) -> AndroidFlipDecision {
        guard forResult, let caller else {
            return .refuse(AndroidAppFlip.canceled, reason: "caller: not started for a result, so the calling app cannot be verified")
        }
        let allowed = callers.filter { $0.package.isIdentical(to: caller.package) }
        guard !allowed.isEmpty else {
            return .refuse(AndroidAppFlip.canceled, reason: "caller: the calling package \(caller.package) is not an allowed caller")
        }
        let fingerprints = Set(allowed.flatMap(\.fingerprints))
        guard caller.fingerprints.contains(where: fingerprints.contains) else {
            return .refuse(
                AndroidAppFlip.canceled,
                reason: "caller: none of \(caller.package)'s signing certificates is one allowed for it"
            )
        }

        guard let clientID = intent.extras[AndroidAppFlip.clientID]?.string, !clientID.isEmpty else {
            return Self.invalid("CLIENT_ID must be a non-empty String extra")
        }
        guard expectedClientIDs.contains(where: { $0.isIdentical(to: clientID) }) else {
            return Self.invalid("CLIENT_ID is not one of the expected client ids")
        }
        guard let scopes = intent.extras[AndroidAppFlip.scope]?.stringArray else {
            let sent = intent.extras[AndroidAppFlip.scope].map { "a \($0.typeName)" } ?? "nothing"
            return Self.invalid("SCOPE must be a String[] extra; it is \(sent)")
        }
        guard !scopes.isEmpty, scopes.allSatisfy(Self.isScopeToken) else {
            return Self.invalid("SCOPE must hold at least one scope, each an RFC 6749 §3.3 scope-token")
        }
        guard let redirectURI = intent.extras[AndroidAppFlip.redirectURI]?.string, !redirectURI.isEmpty else {
            return Self.invalid("REDIRECT_URI must be a non-empty String extra")
        }
        if let allowedRedirectURIs, !allowedRedirectURIs.contains(where: { $0.isIdentical(to: redirectURI) }) {
            return Self.invalid("REDIRECT_URI is not one of the allowed redirect URIs")
        }
        return .proceed(AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes))
    }

    private static func invalid(_ reason: String) -> AndroidFlipDecision {
        .refuse(AndroidAppFlip.error(.invalidRequest, code: AndroidAppFlip.ErrorType.invalidRequest.rawValue, description: reason), reason: reason)
    }

    /// RFC 6749 §3.3: `scope-token = 1*NQCHAR`.
    private static func isScopeToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.allSatisfy { $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
    }
}

/// What a partner app does with an App Flip intent.
public enum AndroidFlipDecision: Sendable, Hashable {
    /// Every check passed: obtain an authorization code for this request.
    case proceed(AuthorizationRequest)
    /// Return `result` at once; `reason` names the rule, and holds no extra's value.
    case refuse(IntentResult, reason: String)
}
