/// A host's state as `adb shell pm get-app-links PACKAGE` prints it: `verified`, `none`, or the number a
/// verifier recorded (AOSP `DomainVerificationInfo.STATE_*`; StatementService's `domain/VerifyStatus.kt`
/// numbers its failures from `STATE_FIRST_VERIFIER_DEFINED`, 1024).
///
/// `DomainVerificationState` has more (`approved` 2, `denied` 3, `migrated` 4, `restored` 5,
/// `legacy_failure` 6, `system_configured` 7), each set by something other than a verifier: `pm
/// set-app-links` (approved, denied), an upgrade from Android 11 (migrated, legacy_failure), a restore from
/// backup (restored), a system app's sysconfig (system_configured). appflipd plays a device that has known
/// none of them, so a state here is one of the three a verifier gives, or ``couldNotJudge``, which no device
/// shows: appflip could not read as much of a file as the verifier would.
public enum AppLinkState: Sendable, Hashable, CustomStringConvertible {
    /// `STATE_SUCCESS` (1).
    case verified
    /// `STATE_NO_RESPONSE` (0): no verifier answered, as for a host no filter asks to verify.
    case none
    /// A verifier-defined failure.
    case failure(Int)
    /// Not a device's state: the verifier's verdict depends on more of a file than appflip reads (its own
    /// bound), or on a limit the verifier does not publish.
    case couldNotJudge

    /// StatementService's `VerifyStatus.UNKNOWN`; also what Google's verifier is reported to write for any failure.
    public static let unknown = AppLinkState.failure(1024)
    /// `VerifyStatus.FAILURE_REJECTED_BY_SERVER`: fetched, but no statement names the app (or not 200, or too large).
    public static let rejectedByServer = AppLinkState.failure(1026)
    /// `VerifyStatus.FAILURE_UNKNOWN`: an exception, such as a statement StatementService cannot parse.
    public static let failureUnknown = AppLinkState.failure(1028)
    /// `VerifyStatus.FAILURE_REDIRECT`: a 301 or 302.
    public static let redirect = AppLinkState.failure(1029)

    public var description: String {
        switch self {
        case .verified: "verified"
        case .none: "none"
        case .failure(let code): String(code)
        case .couldNotJudge: "could not judge"
        }
    }
}

/// An app's link-handling status on Android 6–11, one for all its hosts, as `adb shell pm get-app-link
/// PACKAGE` prints it (`PackageManager.INTENT_FILTER_DOMAIN_VERIFICATION_STATUS_*`; the user's own choices,
/// `never` and `always ask`, are left out: appflipd plays no user).
public enum LegacyLinkStatus: String, Sendable, Hashable {
    /// `ALWAYS`: every host verified; the app opens its links without asking.
    case always
    /// `ASK`: verification failed; its links show the disambiguation dialog.
    case ask
    /// `UNDEFINED`: no filter asked for verification; its links show the disambiguation dialog.
    case undefined
}

/// Android releases grouped by how App Links verification works on them.
public enum AndroidGeneration: String, Sendable, Hashable, CaseIterable {
    /// Android 6–11: one verification for the whole app; it is verified for all its hosts or for none.
    case android11AndEarlier = "android-11"
    /// Android 12–14: each host is verified on its own (`DomainVerificationManager`).
    case android12 = "android-12"
    /// Android 15+: per host, and a statement's `dynamic_app_link_components` narrow the manifest's filters.
    case android15 = "android-15"
}

/// The verifier a device runs.
public enum AppLinkVerifier: String, Sendable, Hashable, CaseIterable {
    /// Google Play services' verifier, which answers as the Digital Asset Links API does.
    case google
    /// AOSP's StatementService, on devices without Google Play services.
    case statementService = "statement-service"
}

/// One verifier's verdict for one host of one app.
public struct HostVerdict: Sendable, Hashable {
    public let state: AppLinkState
    /// Why, in users' words: the fetch, the file, or the statement that decided.
    public let reason: String
    /// The dynamic rules of the statement that verified the app (Android 15+).
    public let dynamicRules: [DynamicAppLinkRule]

    public init(state: AppLinkState, reason: String, dynamicRules: [DynamicAppLinkRule] = []) {
        self.state = state
        self.reason = reason
        self.dynamicRules = dynamicRules
    }
}
