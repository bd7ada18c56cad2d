extension HostingPolicy {
    /// How Android's two verifiers fetch `https://HOST/.well-known/assetlinks.json` (and its includes): no
    /// redirect followed, every answer recorded; only Google's verifier reads the content type, judged last;
    /// StatementService's 1 MiB applies to a declared `Content-Length` only (`UrlFetcher.kt`).
    public static let assetLinks = HostingPolicy(
        rules: HostingRules(
            https: HostedRule(
                id: "assetlinks.hosted-https",
                title: "the file is served over HTTPS with a certificate valid for the host",
                sentence:
                    "https://HOST/.well-known/assetlinks.json is fetched over HTTPS with a certificate trusted for the host's name; neither verifier reads it otherwise.",
                source:
                    "developer.android.com/training/app-links/verify-android-applinks (HTTPS); DAL API ERROR_CODE_FAILED_SSL_VALIDATION; StatementService UrlFetcher.kt (HttpsURLConnection)"
            ),
            noRedirect: HostedRule(
                id: "assetlinks.hosted-no-redirect",
                title: "the file is served without a redirect",
                sentence:
                    "The file is served at its well-known URL: neither verifier follows a redirect (StatementService records 1029 for a 301 or 302, 1026 for another 3xx).",
                source:
                    "DAL API ERROR_CODE_REDIRECT (\"HTTP redirects (e.g, 301) are not allowed\"); StatementService UrlFetcher.kt (instanceFollowRedirects = false; 301/302 → 1029)"
            ),
            status: HostedRule(
                id: "assetlinks.hosted-status",
                title: "the file is served with 200 OK",
                sentence: "The file is answered with 200 OK; both verifiers take any other status as no statements (StatementService: 1026).",
                source: "google/digitalassetlinks well-known/details.md; StatementService UrlFetcher.kt (non-200 → 1026)"
            ),
            contentType: HostedRule(
                id: "assetlinks.hosted-content-type",
                title: "the file is served as application/json (Google's verifier; StatementService does not check)",
                sentence:
                    "Google's verifier needs Content-Type application/json (ERROR_CODE_WRONG_CONTENT_TYPE); StatementService reads the body whatever its type.",
                source: "DAL API ERROR_CODE_WRONG_CONTENT_TYPE (\"should be application/json\"); StatementService does not read Content-Type"
            ),
            size: HostedRule(
                id: "assetlinks.hosted-size",
                title: "the file is at most 1 MiB (StatementService; Google's verifier publishes no limit)",
                sentence: "The file is at most 1 MiB: StatementService refuses a larger declared Content-Length (1026); appflip reads no further.",
                source: "StatementService UrlFetcher.kt (Content-Length over 1 MiB → 1026)"
            )
        ),
        wellKnownPath: "/.well-known/assetlinks.json",
        maximumSize: StatementServiceVerifier.sizeLimit,
        fileBudget: GoogleVerifier.fetchBudget,
        contentTypeIsRequired: false,
        sizeRuleReadsContentLength: true,
        consequences: Consequences(
            redirect: "neither verifier follows it",
            status: "both verifiers need 200",
            contentType: "Google's verifier needs application/json (StatementService does not check)",
            size: "appflip reads no further"
        )
    )
}
