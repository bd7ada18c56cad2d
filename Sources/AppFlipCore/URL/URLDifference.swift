/// Where a URL that was opened departs from the one expected, in words: for "opened X, not the
/// redirect_uri Y: …", so that a partner sees the byte that differs instead of a routing error.
public enum URLDifference {
    /// E.g. `it adds "/extra"`, or `they differ at byte 8: "OAUTH-REDIRECT.g" where the redirect_uri has "oauth-redirect.g"`.
    public static func describe(_ opened: String, expected: String) -> String {
        let common = zip(opened.utf8, expected.utf8).prefix { $0 == $1 }.count
        let rest = String(decoding: opened.utf8.dropFirst(common).prefix(24), as: UTF8.self)
        if common == expected.utf8.count { return "it adds \(String(reflecting: rest))" }
        if common == opened.utf8.count { return "it lacks \(String(reflecting: String(decoding: expected.utf8.dropFirst(common), as: UTF8.self)))" }
        let wanted = String(decoding: expected.utf8.dropFirst(common).prefix(24), as: UTF8.self)
        return "they differ at byte \(common): \(String(reflecting: rest)) where the redirect_uri has \(String(reflecting: wanted))"
    }

    /// The URL without its query and fragment: the part compared with a redirect_uri.
    public static func base(of url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}
