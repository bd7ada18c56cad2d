import AppFlipCore
import Testing

/// `AndroidFlipPolicy`: each rule refuses on its own, in order, and only the whole request proceeds.
@Suite struct AndroidFlipPolicyTests {
    static let google = AndroidCaller(package: "com.google.android.googlequicksearchbox", fingerprints: [fingerprint("AB")])
    static let policy = AndroidFlipPolicy(callers: [google], expectedClientIDs: ["client-1"])

    static func fingerprint(_ pair: String) -> String { Array(repeating: pair, count: 32).joined(separator: ":") }

    static func intent(_ extras: [String: IntentExtra] = [:]) -> Intent {
        var intent = AndroidAppFlip.intent(
            action: "p.APP_FLIP",
            package: "com.example.partner",
            clientID: "client-1",
            scopes: ["profile", "devices"],
            redirectURI: "https://oauth-redirect.googleusercontent.com/r/project"
        )
        intent.extras.merge(extras) { $1 }
        return intent
    }

    @Test func theGoogleAppsRequestProceedsWithItsScopes() {
        let decision = Self.policy.decide(Self.intent(), caller: Self.google, forResult: true)
        let expected = AuthorizationRequest(
            clientID: "client-1",
            redirectURI: "https://oauth-redirect.googleusercontent.com/r/project",
            scopes: ["profile", "devices"]
        )
        #expect(decision == .proceed(expected))
    }

    @Test func anyOfTheCallersCertificatesCountsNotOnlyTheFirst() {
        let rotated = AndroidCaller(package: Self.google.package, fingerprints: [Self.fingerprint("01"), Self.fingerprint("AB")])
        guard case .proceed = Self.policy.decide(Self.intent(), caller: rotated, forResult: true) else {
            Issue.record("a caller whose second certificate is allowed was refused")
            return
        }
    }

    @Test(arguments: [
        (AndroidCaller?.none, true, "not started for a result"),
        (AndroidFlipPolicyTests.google, false, "not started for a result"),
        (
            AndroidCaller(package: "com.evil.app", fingerprints: [AndroidFlipPolicyTests.fingerprint("AB")]), true,
            "com.evil.app is not an allowed caller"
        ),
        (
            AndroidCaller(package: AndroidFlipPolicyTests.google.package, fingerprints: [AndroidFlipPolicyTests.fingerprint("AC")]), true,
            "none of com.google.android.googlequicksearchbox's signing certificates"
        ),
    ])
    func aCallerThatCannotBeVerifiedGetsCanceledAndNothingElse(caller: AndroidCaller?, forResult: Bool, rule: String) {
        guard case .refuse(let result, let reason) = Self.policy.decide(Self.intent(), caller: caller, forResult: forResult) else {
            Issue.record("proceeded")
            return
        }
        #expect(result == AndroidAppFlip.canceled)
        #expect(reason.contains(rule), "\(reason)")
    }

    @Test(arguments: [
        ([AndroidAppFlip.clientID: IntentExtra.string("other")], "CLIENT_ID is not one of the expected client ids"),
        ([AndroidAppFlip.clientID: .stringArray(["client-1"])], "CLIENT_ID must be a non-empty String"),
        ([AndroidAppFlip.scope: .string("profile devices")], "SCOPE must be a String[] extra; it is a string"),
        ([AndroidAppFlip.scope: .stringArray([])], "SCOPE must hold at least one scope"),
        ([AndroidAppFlip.scope: .stringArray(["a b"])], "RFC 6749 §3.3"),
        ([AndroidAppFlip.redirectURI: .string("")], "REDIRECT_URI must be a non-empty String"),
    ])
    func aBadExtraIsAnInvalidRequestNamingIt(extras: [String: IntentExtra], rule: String) {
        guard case .refuse(let result, let reason) = Self.policy.decide(Self.intent(extras), caller: Self.google, forResult: true) else {
            Issue.record("proceeded")
            return
        }
        #expect(reason.contains(rule), "\(reason)")
        #expect(result.resultCode == AndroidAppFlip.resultError)
        #expect(result.extras[AndroidAppFlip.errorType] == .int(3))
        #expect(result.extras[AndroidAppFlip.errorCode]?.int != nil)
        #expect(AndroidFlipResultChecker.check(result).violations.isEmpty)
    }

    @Test func anAllowlistedRedirectURIIsComparedExactly() {
        let policy = AndroidFlipPolicy(callers: [Self.google], expectedClientIDs: ["client-1"], allowedRedirectURIs: ["https://a.test/r/p"])
        let intent = Self.intent([AndroidAppFlip.redirectURI: .string("https://a.test/r/P")])
        guard case .refuse(_, let reason) = policy.decide(intent, caller: Self.google, forResult: true) else {
            Issue.record("proceeded")
            return
        }
        #expect(reason == "REDIRECT_URI is not one of the allowed redirect URIs")
    }
}
