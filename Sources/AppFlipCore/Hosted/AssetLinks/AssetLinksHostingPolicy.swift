extension HostingPolicy {
    /// How Android's verifiers fetch `https://HOST/.well-known/assetlinks.json` (and its includes): no
    /// redirect followed, every answer recorded; only Google's verifier reads the content type, judged last.
    /// The size rule is StatementService's 1 MiB, but a body sent without a `Content-Length` is read on, as
    /// Android 12+'s StatementService reads it (`UrlFetcher.kt` `readText()`), up to appflip's own bound,
    /// ``assetLinksReadLimit``; a body whose `Content-Length` is over 1 MiB is not read at all, since that
    /// declaration decides (or leaves undecidable) every verifier's verdict without it.
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
                title: "the file is at most 1 MiB (AOSP's StatementService; Google's verifier publishes no limit)",
                sentence:
                    "The file is at most 1 MiB: StatementService reads none of a body whose Content-Length is larger (Android 12+: 1026), and Android 6–11's stops reading past 1 MiB and fails; Android 12+'s reads a body sent without a Content-Length whole, and Google's verifier publishes no limit.",
                source:
                    "StatementService network/retriever/UrlFetcher.kt (getContentLength() over 1 MiB → no content, 1026; otherwise readText(), no limit) and retriever/URLFetcher.java (inputStreamToString: past 1 MiB throws); DAL API ERROR_CODE_TOO_LARGE (no size published)"
            )
        ),
        wellKnownPath: "/.well-known/assetlinks.json",
        maximumSize: StatementServiceVerifier.sizeLimit,
        readLimit: assetLinksReadLimit,
        fileBudget: GoogleVerifier.fetchBudget,
        contentTypeIsRequired: false,
        consequences: Consequences(
            redirect: "neither verifier follows it",
            status: "both verifiers need 200",
            contentType: "Google's verifier needs application/json (StatementService does not check)",
            size: "StatementService reads none of it (Android 12+: 1026), nor does appflip",
            sizeSent:
                "Android 6–11's StatementService stops reading past 1 MiB and fails; Android 12+'s reads it whole; Google's verifier publishes no limit"
        )
    )

    /// appflip's own bound on one statement list's body: 4 MiB, four times what any Android verifier is known
    /// to accept, so that a body Android 12+'s StatementService reads on is judged for it up to there; past
    /// it, StatementService's verdict is reported as not judged.
    public static let assetLinksReadLimit = 4 * 1024 * 1024
}
