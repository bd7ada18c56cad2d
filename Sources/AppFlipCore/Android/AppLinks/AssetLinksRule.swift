/// The rules `appflip assetlinks check` and the audit's Android association target check, each with its id,
/// what it asks, which verifier cares, and where it is written down.
public enum AssetLinksRule: String, Sendable, Hashable, CaseIterable {
    case hostedHTTPS = "assetlinks.hosted-https"
    case hostedNoRedirect = "assetlinks.hosted-no-redirect"
    case hostedStatus = "assetlinks.hosted-status"
    case hostedContentType = "assetlinks.hosted-content-type"
    case hostedSize = "assetlinks.hosted-size"
    case valid = "assetlinks.valid"
    case delegates = "assetlinks.delegates"
    case googleVerifies = "assetlinks.google-verifies"
    case statementServiceVerifies = "assetlinks.statement-service-verifies"
    case urlDecision = "assetlinks.url-decision"
    case drift = "assetlinks.drift"

    /// What the rule asks, in one line.
    public var title: String {
        switch self {
        case .hostedHTTPS: "the file is served over HTTPS with a certificate valid for the host"
        case .hostedNoRedirect: "the file is served without a redirect"
        case .hostedStatus: "the file is served with 200 OK"
        case .hostedContentType: "the file is served as application/json (Google's verifier; StatementService does not check)"
        case .hostedSize: "the file is at most 1 MiB (StatementService; Google's verifier publishes no limit)"
        case .valid: "every statement list read is a valid statement list, without a named mistake"
        case .delegates: "a statement delegates handle_all_urls to the package with the fingerprint"
        case .googleVerifies: "Google's verifier (devices with Play services) verifies the host for the app"
        case .statementServiceVerifies: "AOSP's StatementService (Android 12+ without Play services) verifies the host for the app"
        case .urlDecision: "the file lets the app open the URL on Android 15 (its dynamic rules)"
        case .drift: "the hosted file means what the committed one means"
        }
    }

    /// The rule, in one sentence.
    public var sentence: String {
        switch self {
        case .hostedHTTPS:
            "https://HOST/.well-known/assetlinks.json is fetched over HTTPS with a certificate trusted for the host's name; neither verifier reads it otherwise."
        case .hostedNoRedirect:
            "The file is served at its well-known URL: neither verifier follows a redirect (StatementService records 1029 for a 301 or 302, 1026 for another 3xx)."
        case .hostedStatus: "The file is answered with 200 OK; both verifiers take any other status as no statements (StatementService: 1026)."
        case .hostedContentType:
            "Google's verifier needs Content-Type application/json (ERROR_CODE_WRONG_CONTENT_TYPE); StatementService reads the body whatever its type."
        case .hostedSize: "The file is at most 1 MiB: StatementService refuses a larger declared Content-Length (1026); appflip reads no further."
        case .valid:
            "Every statement list read (the file and its includes) is a JSON array of well-formed statements; each mistake is named by its DAL code, line and column."
        case .delegates:
            "A statement grants delegate_permission/common.handle_all_urls to an android_app target with the package and one of its SHA-256 fingerprints, compared exactly."
        case .googleVerifies:
            "Google's verifier, reading the file and its includes as the Digital Asset Links API does, verifies the host for the app."
        case .statementServiceVerifies:
            "StatementService, which fails the whole host on a statement it cannot parse (1028) and reads one level of includes, verifies the host for the app."
        case .urlDecision:
            "Each --url is a link of the host, and on Android 15 the delegating statement's dynamic_app_link_components let the app open it (the first matching rule is not an exclude, and some rule matches); before Android 15 the manifest's filters alone decide."
        case .drift: "The hosted file delegates to the same package and fingerprint pairs, with the same verdicts, as the committed file."
        }
    }

    /// Where the rule is written down.
    public var source: String {
        switch self {
        case .hostedHTTPS:
            "developer.android.com/training/app-links/verify-android-applinks (HTTPS); DAL API ERROR_CODE_FAILED_SSL_VALIDATION; StatementService UrlFetcher.kt (HttpsURLConnection)"
        case .hostedNoRedirect:
            "DAL API ERROR_CODE_REDIRECT (\"HTTP redirects (e.g, 301) are not allowed\"); StatementService UrlFetcher.kt (instanceFollowRedirects = false; 301/302 → 1029)"
        case .hostedStatus: "google/digitalassetlinks well-known/details.md; StatementService UrlFetcher.kt (non-200 → 1026)"
        case .hostedContentType: "DAL API ERROR_CODE_WRONG_CONTENT_TYPE (\"should be application/json\"); StatementService does not read Content-Type"
        case .hostedSize: "StatementService UrlFetcher.kt (Content-Length over 1 MiB → 1026)"
        case .valid:
            "google/digitalassetlinks well-known/details.md and compatibility-tests/v1; StatementService StatementParser.kt; docs/android.md (DAL codes)"
        case .delegates: "google/digitalassetlinks well-known/details.md (delegate_permission/common.handle_all_urls, sha256_cert_fingerprints)"
        case .googleVerifies: "DAL API behaviour pinned by google/digitalassetlinks compatibility-tests/v1; docs/android.md"
        case .statementServiceVerifies: "AOSP packages/StatementService domain/DomainVerifier.kt, domain/VerifyStatus.kt; docs/android.md"
        case .urlDecision:
            "developer.android.com/training/app-links/configure-assetlinks (dynamic_app_link_components, Android 15); AOSP DomainVerificationUtils / UriRelativeFilterGroup; docs/android.md (dynamic rules)"
        case .drift: "docs/android.md (drift)"
        }
    }
}
