/// Where today's `appflip audit` reports another verdict than the hand-verified table: each entry names the
/// table, the check, the verdict the audit gives now, and why it is wrong. The matrix accepts exactly these
/// and fails on any other difference, and on an entry the audit no longer disagrees with, so that the list
/// shrinks as issue 33's preconditions land (client authentication, PKCE, one finding per cause).
enum KnownDisagreements {
    struct Entry {
        var table: String
        var check: String
        /// The verdict the audit gives today; the table holds the true one.
        var audit: String
        var reason: String
    }

    /// Authlib's and pyoidc's quick-start clients accept only HTTP Basic; the audit keeps sending the secret in
    /// the body after `token.exchange-basic` has shown that Basic works, so the checks on tokens never run.
    static let basicOnly =
        "the token endpoint accepts only HTTP Basic for this client; the audit keeps using client_secret_post "
        + "after token.exchange-basic showed that Basic works"

    /// The checks on tokens that Basic would have run, skipped in both Basic-only quick starts.
    static let skippedOnTokens = [
        "token.json", "token.no-store", "token.bearer", "token.opaque", "token.expires-in", "token.refresh-issued",
        "token.code-single-use", "token.refresh", "token.resource",
    ]

    static let entries: [Entry] =
        skippedOnTokens.map { Entry(table: "authlib-quickstart", check: $0, audit: "skipped", reason: basicOnly) }
        + [
            Entry(table: "authlib-quickstart", check: "token.refresh-rotation", audit: "skipped", reason: basicOnly),
            Entry(
                table: "authlib-quickstart",
                check: "token.code-redirect-binding",
                audit: "fail",
                reason: basicOnly + ": a false failure (401 invalid_client); with Basic, 400 invalid_grant"
            ),
            Entry(
                table: "authlib-quickstart",
                check: "token.invalid-refresh",
                audit: "fail",
                reason: basicOnly + ": a false failure (401 invalid_client); with Basic, 400 invalid_grant"
            ),
            Entry(
                table: "aioauth-quickstart",
                check: "token.exchange-basic",
                audit: "fail",
                reason: "token.exchange's server_error (the example's storage), whatever the credentials: one cause reported twice"
            ),
            Entry(
                table: "aioauth-quickstart",
                check: "token.code-redirect-binding",
                audit: "fail",
                reason: "no code can be exchanged at all (token.exchange's server_error): a finding caused by another finding"
            ),
        ]
        + skippedOnTokens.map { Entry(table: "pyoidc-quickstart", check: $0, audit: "skipped", reason: basicOnly) }
        + [
            Entry(
                table: "pyoidc-quickstart",
                check: "token.invalid-refresh",
                audit: "fail",
                reason: "judged on the client_secret_post refusal (401 unauthorized_client); with Basic every refresh gets "
                    + "unsupported_grant_type, the one cause token.refresh reports"
            ),
            Entry(
                table: "django-oauth-toolkit-defaults",
                check: "token.invalid-refresh",
                audit: "skipped",
                reason: "a made-up refresh token needs no code, but the audit skips every token check when it has none"
            ),
            Entry(
                table: "django-oauth-toolkit-defaults",
                check: "token.error-format",
                audit: "skipped",
                reason: "judges the refusals token.invalid-refresh would have seen, which needs no code"
            ),
            Entry(
                table: "django-oauth-toolkit-defaults",
                check: "authorize.redirect-uris",
                audit: "fail",
                reason: "PKCE is required (Code challenge required.): one cause, to be reported once as itself, not as 12 redirect URIs"
            ),
        ]

    /// The entry for `check` in `table`, if any.
    static func entry(table: String, check: String) -> Entry? {
        entries.first { $0.table == table && $0.check == check }
    }
}
