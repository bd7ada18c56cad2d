public import AppFlipCore

extension CheckSpec {
    /// `android.action`.
    public static let androidAction = CheckSpec(
        id: "android.action",
        target: .androidApp,
        title: "the console's action resolves, and is the partner's own",
        rule:
            "The App Flip activity declares the action the partner entered in the console (--android-action) and is exported, so that Google's intent resolves; that action is the partner's own, not INTENT_ACTION_FROM_CONSOLE, the placeholder of Google's manifest example.",
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
            "The Google app's intent (started for a result, CLIENT_ID, SCOPE as a String[], REDIRECT_URI) gets RESULT_OK with a code, a new one for each intent; RESULT_CANCELED or ERROR_TYPE 1 or 2 (the user cannot link) leaves the audit unable to run, and ERROR_TYPE 3 to a valid intent breaks the flow.",
        source: "\(AuditSource.appFlipAndroid), \"Response data\"; \(AuditSource.rfc(6749, "4.1.2")), §10.5",
        level: .must,
        requires: [.androidApp],
        establishes: .androidCode
    )
    /// `android.caller-package`.
    public static let androidCallerPackage = CheckSpec(
        id: "android.caller-package",
        target: .androidApp,
        title: "another package gets no code",
        rule: "An intent started by another package, even with Google's certificate, gets no code.",
        source:
            "\(AuditSource.appFlipAndroid), \"How it works\" step 4 and \"Modify your Android app\" step 2; Android, Activity.getCallingActivity()",
        level: .must,
        requires: [.androidApp, .androidCode]
    )
    /// `android.caller-fingerprint`.
    public static let androidCallerFingerprint = CheckSpec(
        id: "android.caller-fingerprint",
        target: .androidApp,
        title: "the Google package signed by another key gets no code",
        rule: "An intent started by the Google app's package signed by another certificate gets no code.",
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
        rule: "A CLIENT_ID that is not Google's (another, in another case, with a trailing space, empty) gets no code.",
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
            "SCOPE is a String[]: the tokens of the code returned for one scope carry exactly that scope (read as a String it is null, and the scopes are lost).",
        source: "\(AuditSource.appFlipAndroid), \"Intent data\"; googlesamples/identity-appflip-tester-android (SCOPE as String[])",
        level: .must,
        requires: [.androidApp, .androidCode, .tokenEndpoint, .tokenScope]
    )
    /// `android.token-exchange`.
    public static let androidTokenExchange = CheckSpec(
        id: "android.token-exchange",
        target: .androidApp,
        title: "the returned code is exchanged with REDIRECT_URI",
        rule: "The code the app returned is exchanged at the token endpoint with the intent's REDIRECT_URI.",
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
