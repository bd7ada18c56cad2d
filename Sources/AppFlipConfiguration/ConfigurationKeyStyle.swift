/// Every configuration key is camelCase, acronyms in capitals (`redirectURIs`, `clientID`), as
/// `appflipd.json` has always been written. `oauth.json` was snake_case until it joined the others; its
/// old keys, and any other spelling of a known key, are refused with the key to write instead.
enum ConfigurationKeyStyle {
    /// The known key that `key` spells differently (`authorization_code_lifetime` for
    /// `authorizationCodeLifetime`, `clientId` for `clientID`), if there is exactly one.
    static func spelling(of key: String, among known: [String]) -> String? {
        let folded = fold(key)
        let matches = known.filter { fold($0) == folded }
        return matches.count == 1 ? matches[0] : nil
    }

    /// What to tell a user who wrote another spelling of `known`.
    static func rename(to known: String) -> String {
        "renamed; write `\(known)` (configuration keys are camelCase)"
    }

    /// The key without underscores or hyphens, in lower case.
    private static func fold(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != "-" })
    }
}
