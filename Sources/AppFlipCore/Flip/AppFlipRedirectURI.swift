/// One of the 12 redirect URIs Google's apps send in an App Flip link (seed: "Modify your authorization
/// endpoint to support App Flip"). They are Google's own universal links: a partner app may open nothing else.
public struct AppFlipRedirectURI: Sendable, Hashable, CustomStringConvertible {
    /// The Google app that receives the result.
    public enum GoogleApp: String, Sendable, Hashable, CaseIterable {
        case home = "com.google.Chromecast"
        case assistant = "com.google.OPA"
    }

    /// The build of that app, written as a suffix of its bundle id.
    public enum Variant: String, Sendable, Hashable, CaseIterable {
        case production = ""
        case dev = ".dev"
        case enterprise = ".enterprise"
    }

    /// Which Google redirect host serves the link.
    public enum Environment: String, Sendable, Hashable, CaseIterable {
        case production = "oauth-redirect.googleusercontent.com"
        case sandbox = "oauth-redirect-sandbox.googleusercontent.com"
    }

    /// Which Google app the result link returns to.
    public let app: GoogleApp
    /// Which build of that app: production, `.dev` or `.enterprise`.
    public let variant: Variant
    /// Which Google redirect host serves the link: production or sandbox.
    public let environment: Environment

    /// Names one of the 12 URIs; every combination is valid.
    public init(app: GoogleApp, variant: Variant, environment: Environment) {
        self.app = app
        self.variant = variant
        self.environment = environment
    }

    /// The bundle id the path names, e.g. `com.google.OPA.dev`.
    public var bundleID: String { app.rawValue + variant.rawValue }

    /// The host, lower-case, exactly as it must appear.
    public var host: String { environment.rawValue }

    /// The path, exactly `/a/BUNDLE`.
    public var path: String { "/a/" + bundleID }

    /// The URI exactly as it must appear, byte for byte.
    public var string: String { "https://" + host + path }

    /// The URI, byte for byte: ``string``.
    public var description: String { string }

    /// All 12, in the seed's order: Home then Assistant; production host then sandbox; `.dev`, `.enterprise`,
    /// then the plain bundle id.
    public static let all: [AppFlipRedirectURI] = GoogleApp.allCases.flatMap { app in
        Environment.allCases.flatMap { environment in
            [Variant.dev, .enterprise, .production].map {
                AppFlipRedirectURI(app: app, variant: $0, environment: environment)
            }
        }
    }
}

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

extension StringProtocol {
    /// Byte-for-byte equality. Swift's `==` compares canonical equivalence, under which `"\u{212A}"` (KELVIN
    /// SIGN) equals `"K"`: fine for text, wrong for identifiers and URIs that must match exactly.
    func isIdentical(to other: some StringProtocol) -> Bool {
        utf8.elementsEqual(other.utf8)
    }
}
