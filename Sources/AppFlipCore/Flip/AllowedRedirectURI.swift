/// A redirect URI that passed an allowlist check. Only `RedirectAllowlist.check(_:)` makes one, so a result
/// URL can only ever be built on a verified URI.
public struct AllowedRedirectURI: Sendable, Hashable, CustomStringConvertible {
    /// The URI exactly as received and listed.
    public let string: String
    /// Which of the 12 App Flip URIs it is; `nil` for a URI a user added to their allowlist.
    public let appFlip: AppFlipRedirectURI?

    init(string: String, appFlip: AppFlipRedirectURI?) {
        self.string = string
        self.appFlip = appFlip
    }

    /// The URI exactly as allowed.
    public var description: String { string }
}
