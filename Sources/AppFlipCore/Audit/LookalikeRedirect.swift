/// A redirect_uri that looks like one of the 12 App Flip redirect URIs but is not: each must be refused
/// (RFC 6749 §4.1.2.1, RFC 9700 §2.1 and §4.1). A partner that opens one hands a live code to whoever
/// claims that URL.
public struct LookalikeRedirect: Sendable, Hashable {
    /// What differs from the real URI, for the report.
    public var label: String
    /// The lookalike itself.
    public var uri: String

    /// The lookalikes of `redirect`, one per way an inexact comparison lets one through.
    public static func all(of redirect: AppFlipRedirectURI) -> [LookalikeRedirect] {
        let host = redirect.host
        let path = redirect.path
        return [
            LookalikeRedirect(label: "upper-case host", uri: "https://\(host.uppercased())\(path)"),
            LookalikeRedirect(label: "trailing dot on the host", uri: "https://\(host).\(path)"),
            LookalikeRedirect(label: "explicit :443", uri: "https://\(host):443\(path)"),
            LookalikeRedirect(label: "userinfo", uri: "https://attacker.example@\(host)\(path)"),
            LookalikeRedirect(label: "extra path", uri: "https://\(host)\(path)/extra"),
            LookalikeRedirect(label: "extra segment character", uri: "https://\(host)\(path)x"),
            LookalikeRedirect(label: "trailing slash", uri: "https://\(host)\(path)/"),
            LookalikeRedirect(label: "query", uri: "https://\(host)\(path)?next=1"),
            LookalikeRedirect(label: "fragment", uri: "https://\(host)\(path)#f"),
            LookalikeRedirect(label: "http", uri: "http://\(host)\(path)"),
            LookalikeRedirect(label: "foreign domain", uri: "https://attacker.example\(path)"),
            LookalikeRedirect(label: "foreign domain ending in the host", uri: "https://\(host).attacker.example\(path)"),
        ]
    }

    /// The requests that carry `redirect` and a lookalike of it, both as `redirect_uri`, in either order: a
    /// partner that checks one occurrence and redirects to the other (HTTP parameter pollution) hands the code
    /// to the lookalike's owner. A parameter sent twice makes the request invalid (RFC 6749 §3.1,
    /// §4.1.2.1); nothing may reach the lookalike, and a result may only go to `redirect` itself.
    public static func repeated(with redirect: AppFlipRedirectURI) -> [(label: String, values: [String])] {
        let lookalike = "https://attacker.example\(redirect.path)"
        return [
            ("redirect_uri twice, the App Flip one first, then \(lookalike)", [redirect.string, lookalike]),
            ("redirect_uri twice, \(lookalike) first, then the App Flip one", [lookalike, redirect.string]),
        ]
    }
}
