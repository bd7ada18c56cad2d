/// An app identifier as iOS and the apple-app-site-association file write it: the team identifier, a dot,
/// the bundle identifier (`ABCDE12345.com.example.app`). A provisioning profile may name a wildcard bundle
/// (`ABCDE12345.*`, `ABCDE12345.com.example.*`), which covers every app it prefixes.
public struct AppleAppID: Sendable, Hashable, CustomStringConvertible {
    /// The team (or, for old apps, the app ID prefix) before the first dot.
    public let team: String
    /// The bundle identifier after it; may end in `*` in a profile.
    public let bundle: String

    public init(team: String, bundle: String) {
        self.team = team
        self.bundle = bundle
    }

    /// Splits `ABCDE12345.com.example.app` at its first dot; nil without one, or with an empty side.
    public init?(_ text: String) {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else { return nil }
        self.team = String(text[..<dot])
        self.bundle = String(text[text.index(after: dot)...])
    }

    /// `TEAM.bundle`, the form AASA `appIDs` use.
    public var description: String { "\(team).\(bundle)" }

    /// Whether the bundle is a wildcard (`*` or `prefix.*`).
    public var isWildcard: Bool { bundle.hasSuffix("*") }
}
