/// The documents the audit's rules come from, cited by each check.
public enum AuditSource {
    /// Google's "App Flip for iOS" page, the seed of this project.
    public static let seed = "Google, App Flip for iOS (seed)"
    /// Google's "App Flip for Android" page.
    public static let appFlipAndroid = "Google, App Flip for Android (developers.google.com/identity/account-linking/app-flip-android)"
    /// Google's account-linking validation tool.
    public static let validationTool = "Google account-linking validation tool (developers.google.com/identity/account-linking/gal-validation-tool)"
    /// Google's OAuth linking page: what Google's requests to the authorization and token endpoints carry.
    public static let googleOAuth = "Google, OAuth-based account linking (developers.google.com/identity/account-linking/oauth-linking)"
    /// Google's unlinking page: the refresh token lives as long as the link, and unlinking revokes it.
    public static let googleUnlinking = "Google, Unlinking accounts (developers.google.com/identity/account-linking/unlinking)"
    /// Google's OAuth linking page, on what the token endpoint's refresh exchange is for.
    public static let googleRefreshExchange =
        "Google, Account linking with OAuth (developers.google.com/assistant/identity/oauth2?oauth=code): the token exchange endpoint \"Exchanges a long-lived refresh token for a short-lived access token. This exchange happens when Google needs a new access token because the one it had expired.\""
    /// Google's unlinking page, on what unlinks an account: a session's end is not among them.
    public static let googleUnlinkingEvents =
        "Google, Unlinking accounts (developers.google.com/identity/account-linking/unlinking): \"Accounts can become unlinked by any of the following: User request from a Google application or Google Account settings, Your platform; Failure to renew an expired refresh token; Other events initiated by you or Google.\""
    /// Google's reference of the endpoints a partner implements, and the sentence that requires HTTPS of all of them.
    public static let googleAPIReference =
        "Google, Account linking: your API reference (developers.google.com/identity/account-linking/your-api-reference), \"Prerequisites and standards\": \"All endpoints must be served over a secure HTTPS connection\""
    /// A precondition of the audit, not a rule: when it cannot be met the checks that need it cannot run.
    public static let precondition = "appflip audit precondition (docs/audit.md, Needs and blame)"
    /// Apple's universal-link rules as `swcutil` applies them.
    public static let appleAASA = "Apple, Supporting associated domains (apple-app-site-association)"
    /// Apple's hosting rules for the association file: HTTPS, a valid certificate, no redirect.
    public static let appleHosting =
        "Apple, Supporting associated domains: \"host the file using https:// with a valid certificate and with no redirects\" (https://developer.apple.com/documentation/xcode/supporting-associated-domains)"
    /// Why only 200 carries the file.
    public static let hostingStatus =
        "HTTP semantics (RFC 9110 §15.3.1): only 200 carries the file; Apple's CDN and iOS treat any other status as no file"
    /// Where Apple asks for `application/json`.
    public static let hostingContentType =
        "Apple, App Search Programming Guide, Support Universal Links: an unsigned file served over HTTPS uses the application/json MIME type (https://developer.apple.com/library/archive/documentation/General/Conceptual/AppSearch/UniversalLinks.html)"
    /// Where the 128 KB limit is known from.
    public static let hostingSize =
        "iOS 9.3.1 and later refuse files above 128 KB, uncompressed (Branch's incident report, https://status.branch.io/incidents/b0c19p6hpq58); Apple documents no other figure"

    /// An RFC section, e.g. `rfc(6749, "4.1.3")`.
    public static func rfc(_ number: Int, _ section: String) -> String { "RFC \(number) §\(section)" }
}
