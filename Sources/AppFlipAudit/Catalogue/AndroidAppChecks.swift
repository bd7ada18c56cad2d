public import AppFlipCore

extension CheckSpec {
    /// `android.action`.
    public static let androidAction = CheckSpec(
        id: "android.action",
        target: .androidApp,
        title: "the console's action resolves, and is the partner's own",
        rule:
            "The App Flip activity declares the action the partner entered in the console (--android-action) in the DEFAULT category and is exported, so that Google's intent resolves; that action is the partner's own, not INTENT_ACTION_FROM_CONSOLE, the placeholder of Google's manifest example, in the console or, in its stead, in the manifest.",
        source:
            "\(AuditSource.appFlipAndroid), \"Modify your Android app\" step 1; Android, intent resolution (ActivityNotFoundException; SecurityException for an activity that is not exported)",
        level: .must,
        requires: [.androidApp]
    )
    /// `android.code`.
    public static let androidCode = CheckSpec(
        id: "android.code",
        target: .androidApp,
        title: "the Google app's intent yields a new code",
        rule:
            "The Google app's intent (started for a result, CLIENT_ID, SCOPE as a String[], REDIRECT_URI) gets RESULT_OK with a code, a new one for each intent, whether intents come one after another or at once; RESULT_CANCELED or ERROR_TYPE 1 or 2 (the user cannot link) leaves the audit unable to run, and ERROR_TYPE 3 or a crash on a valid intent breaks the flow.",
        source: "\(AuditSource.appFlipAndroid), \"Response data\"; \(AuditSource.rfc(6749, "4.1.2")), §10.5",
        level: .must,
        requires: [.androidApp],
        establishes: .androidCode
    )
    /// `android.caller-package`.
    public static let androidCallerPackage = CheckSpec(
        id: "android.caller-package",
        target: .androidApp,
        title: "other packages, and lookalikes of Google's, get no code",
        rule:
            "An intent started by another package signed by Google's certificate gets no code: one that is not Google's, and each lookalike of an allowed Google package (a child, a sibling, its parent, a prefix, a suffix, one that ends with it, in another case, a character changed, a dot a regular expression reads as any character, at the 255-byte limit), packages compared exactly; Google's other apps that start App Flip (Google Home, the App Flip Test Tool) are information, since a partner may allow each.",
        source:
            "\(AuditSource.appFlipAndroid), \"How it works\" step 4 and \"Modify your Android app\" step 2; Android, Activity.getCallingActivity(); googlesamples/identity-appflip-android (compares the package with equalsIgnoreCase)",
        level: .must,
        requires: [.androidApp, .androidCode]
    )
    /// `android.caller-fingerprint`.
    public static let androidCallerFingerprint = CheckSpec(
        id: "android.caller-fingerprint",
        target: .androidApp,
        title: "the Google package signed by other keys gets no code",
        rule:
            "An intent started by an allowed Google package signed by another certificate gets no code: an unrelated key, an allowed key with its last or its first byte changed, two unrelated keys at once; fingerprints compared exactly, all 32 bytes.",
        source:
            "\(AuditSource.appFlipAndroid), \"How it works\" step 4 and \"Modify your Android app\" step 2; Android, Activity.getCallingActivity()",
        level: .must,
        requires: [.androidApp, .androidCode]
    )
    /// `android.caller-unverified`.
    public static let androidCallerUnverified = CheckSpec(
        id: "android.caller-unverified",
        target: .androidApp,
        title: "a caller that cannot be verified gets no code",
        rule: "An intent whose calling app cannot be verified (not started for a result: getCallingActivity() is null) gets no code.",
        source:
            "\(AuditSource.appFlipAndroid), \"How it works\" step 4 and \"Modify your Android app\" step 2; Android, Activity.getCallingActivity()",
        level: .must,
        requires: [.androidApp, .androidCode]
    )
    /// `android.wrong-client-id`.
    public static let androidWrongClientID = CheckSpec(
        id: "android.wrong-client-id",
        target: .androidApp,
        title: "wrong CLIENT_IDs get no code",
        rule:
            "A CLIENT_ID that is not Google's (the wrong client_ids partner.wrong-client-id sends: every mutation of Google's in docs/audit.md's client id families, and none) gets no code.",
        source: "\(AuditSource.appFlipAndroid), \"How it works\" step 4",
        level: .must,
        requires: [.androidApp, .androidCode]
    )
    /// `android.error-type`.
    public static let androidErrorType = CheckSpec(
        id: "android.error-type",
        target: .androidApp,
        title: "a wrong CLIENT_ID is not answered as recoverable",
        rule:
            "A wrong CLIENT_ID is refused as an invalid request (ERROR_TYPE 3) or canceled, never as recoverable (ERROR_TYPE 1), which sends Google to web OAuth with the same request.",
        source: "\(AuditSource.appFlipAndroid), \"Response data\"",
        level: .must,
        requires: [.androidApp, .androidCode, .androidRefusal]
    )
    /// `android.result-contract`.
    public static let androidResultContract = CheckSpec(
        id: "android.result-contract",
        target: .androidApp,
        title: "every result keeps the result contract",
        rule:
            "Every result is RESULT_OK (-1) with a non-empty String AUTHORIZATION_CODE, -2 with an int ERROR_TYPE of 1, 2 or 3 and an int ERROR_CODE (ERROR_DESCRIPTION optional), or RESULT_CANCELED (0); a code only with RESULT_OK.",
        source: "\(AuditSource.appFlipAndroid), \"Response data\"",
        level: .must,
        requires: [.androidApp]
    )
    /// `android.scope`.
    public static let androidScope = CheckSpec(
        id: "android.scope",
        target: .androidApp,
        title: "SCOPE, a String[], reaches the code",
        rule:
            "SCOPE is a String[]: asked for each scope alone and for all of them, the code's tokens carry what was asked, or what the authorization endpoint's own code for it carries (a server may grant other scopes, RFC 6749 §3.3); the same scopes sent as a String reaching the tokens where the String[] does not shows SCOPE read with getStringExtra, null for a String[]. Without either control a difference is a warning.",
        source:
            "\(AuditSource.appFlipAndroid), \"Intent data\"; googlesamples/identity-appflip-tester-android (SCOPE as String[]); \(AuditSource.rfc(6749, "3.3")), §5.1",
        level: .must,
        requires: [.androidApp, .androidCode, .tokenEndpoint, .tokenScope]
    )
    /// `android.token-exchange`.
    public static let androidTokenExchange = CheckSpec(
        id: "android.token-exchange",
        target: .androidApp,
        title: "the returned code is exchanged with REDIRECT_URI",
        rule:
            "The code the app returned gets tokens at the token endpoint with the intent's REDIRECT_URI; the answer is held to the token.* rules of every token response and refusal.",
        source: "\(AuditSource.appFlipAndroid), \"How it works\" step 6; \(AuditSource.rfc(6749, "4.1.3"))",
        level: .must,
        requires: [.androidApp, .androidCode, .tokenEndpoint]
    )
}

extension AuditCatalogue {
    /// The Android app's checks, through appflipd, in report order.
    static let androidApp: [CheckSpec] = [
        .androidAction, .androidCode, .androidCallerPackage, .androidCallerFingerprint, .androidCallerUnverified, .androidWrongClientID,
        .androidErrorType, .androidResultContract, .androidScope, .androidTokenExchange,
    ]
}
