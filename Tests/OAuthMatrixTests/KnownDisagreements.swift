/// Where today's `appflip audit` reports another verdict than the hand-verified table: each entry names the
/// table, the check, the verdict the audit gives now, and why it is wrong. The matrix accepts exactly these
/// and fails on any other difference, and on an entry the audit no longer disagrees with, so that the list
/// shrinks as the audit is fixed.
enum KnownDisagreements {
    struct Entry {
        var table: String
        var check: String
        /// The verdict the audit gives today; the table holds the true one.
        var audit: String
        var reason: String
    }

    /// With no code from any source the audit skips every token check, also those with inputs that need no
    /// code: a made-up refresh token, a request without a token or with a made-up one at the resource, the
    /// revocation of a token never issued. The PKCE finding is one cause; these rules are others.
    static let noCodeNeeded = "with no code the audit skips every token check, but this one's inputs need none"

    static let entries: [Entry] =
        [
            Entry(
                table: "pyoidc-quickstart",
                check: "token.invalid-refresh",
                audit: "fail",
                reason: "every refresh, made up or real, gets 400 unsupported_grant_type: token.refresh's one cause reported twice"
            ),
            Entry(
                table: "pyoidc-quickstart",
                check: "token.www-authenticate",
                audit: "skipped",
                reason: "a wrong Basic secret gets HTTP 401 unauthorized_client \"Incorrect secret\" without WWW-Authenticate; the audit "
                    + "judges the challenge only after invalid_client, although any 401 to a failed Basic authentication is one"
            ),
            Entry(
                table: "pyoidc-careful",
                check: "token.code-redirect-binding",
                audit: "fail",
                reason: "a code without redirect_uri gets HTTP 500 text/html and no tokens: refused, its format token.error-format's "
                    + "failure; one answer, two failures"
            ),
            Entry(
                table: "aioauth-careful",
                check: "token.code-redirect-binding",
                audit: "fail",
                reason: "the code's own redirect_uri with a trailing slash, registered for no client, gets HTTP 400 invalid_request "
                    + "\"Invalid redirect URI.\": an invalid parameter value (RFC 6749 §5.2), the code refused and unspent"
            ),
        ]
        + ["token.invalid-refresh", "token.error-format", "token.error-fields", "token.revoke-unknown"].map {
            Entry(table: "django-oauth-toolkit-defaults", check: $0, audit: "skipped", reason: noCodeNeeded + " (true: pass)")
        }
        + [
            Entry(
                table: "django-oauth-toolkit-defaults",
                check: "token.resource-refusal",
                audit: "skipped",
                reason: noCodeNeeded + ": no token and a made-up token get HTTP 403 without WWW-Authenticate (RFC 6750 §3), unseen"
            )
        ]

    /// The entry for `check` in `table`, if any.
    static func entry(table: String, check: String) -> Entry? {
        entries.first { $0.table == table && $0.check == check }
    }
}
