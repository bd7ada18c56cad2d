/// An activity's `<intent-filter>` as far as links are concerned, matched as `android.content.IntentFilter`
/// matches a VIEW intent's data (AOSP `core/java/android/content/IntentFilter.java`).
///
/// The `<data>` elements of one filter are merged: every scheme combines with every authority and every
/// path, whichever `<data>` element each was written in. Schemes compare exactly, case-sensitively
/// (`matchData`); hosts case-insensitively, and a host starting with `*` matches any host ending with the
/// rest, so `*.example.com` matches `a.example.com` but not `example.com` (`AuthorityEntry.match`); a
/// filter port must equal the URL's explicit port; paths count only when the filter has a scheme and a host.
public struct IntentFilter: Sendable, Hashable {
    public static let actionView = "android.intent.action.VIEW"
    public static let categoryBrowsable = "android.intent.category.BROWSABLE"
    public static let categoryDefault = "android.intent.category.DEFAULT"

    /// A `<data android:host android:port>` pair.
    public struct Authority: Sendable, Hashable {
        public let host: String
        public let port: Int?

        public init(host: String, port: Int? = nil) {
            self.host = host
            self.port = port
        }

        /// `IntentFilter.AuthorityEntry.match`.
        public func matches(host uriHost: String, port uriPort: Int?) -> Bool {
            let filterHost = host.lowercasedASCII
            let candidate = uriHost.lowercasedASCII
            if filterHost.hasPrefix("*") {
                if !candidate.hasSuffix(filterHost.dropFirst()) { return false }
            } else if filterHost != candidate {
                return false
            }
            if let port { return port == uriPort }
            return true
        }
    }

    public var actions: [String]
    public var categories: [String]
    public var autoVerify: Bool
    public var schemes: [String]
    public var authorities: [Authority]
    /// `path`, `pathPrefix`, `pathPattern`, `pathAdvancedPattern`, `pathSuffix`.
    public var paths: [PatternMatcher]

    public init(
        actions: [String] = [IntentFilter.actionView],
        categories: [String] = [IntentFilter.categoryDefault, IntentFilter.categoryBrowsable],
        autoVerify: Bool = false,
        schemes: [String],
        authorities: [Authority],
        paths: [PatternMatcher] = []
    ) {
        self.actions = actions
        self.categories = categories
        self.autoVerify = autoVerify
        self.schemes = schemes
        self.authorities = authorities
        self.paths = paths
    }

    /// `matchData` for a URI with a scheme and host and no MIME type.
    public func matchesData(_ uri: AndroidURI) -> Bool {
        guard schemes.contains(uri.scheme) else { return false }
        guard !authorities.isEmpty else { return true }
        guard authorities.contains(where: { $0.matches(host: uri.host, port: uri.port) }) else { return false }
        return paths.isEmpty || paths.contains { $0.matches(uri.path) }
    }

    /// Whether a link opened from a browser or another app can reach this filter: action VIEW and the
    /// categories BROWSABLE and DEFAULT (implicit intents are resolved with `MATCH_DEFAULT_ONLY`).
    public var handlesBrowsableView: Bool {
        actions.contains(Self.actionView) && categories.contains(Self.categoryBrowsable) && categories.contains(Self.categoryDefault)
    }

    /// Whether Android 12+ collects this filter's hosts for verification: `autoVerify`, VIEW, BROWSABLE and
    /// DEFAULT, and only `http`/`https` schemes (`DomainVerificationCollector`, `IntentFilter.handlesWebUris(true)`).
    public var isCollectedForVerification: Bool {
        autoVerify && handlesBrowsableView && !schemes.isEmpty && schemes.allSatisfy { $0 == "http" || $0 == "https" }
    }

    /// Whether the filter takes web links at all (an `http` or `https` scheme), verified or not.
    public var handlesWebLinks: Bool {
        handlesBrowsableView && schemes.contains { $0 == "http" || $0 == "https" }
    }

    /// The hosts verification is asked for, lower-cased, as written (a wildcard host is verified at its apex).
    public var verificationHosts: [String] {
        isCollectedForVerification ? authorities.map { $0.host.lowercasedASCII } : []
    }

    /// `IntentFilter.handlesWebUris(onlyWebSchemes)`: action VIEW, category BROWSABLE, and an `http` or `https`
    /// scheme (every scheme, with `onlyWebSchemes`); DEFAULT is not asked for. Android 6–11 verify the hosts of
    /// every filter for which `handlesWebUris(false)` holds, once one filter asks for verification.
    public func handlesWebURIs(onlyWebSchemes: Bool) -> Bool {
        guard actions.contains(Self.actionView), categories.contains(Self.categoryBrowsable), !schemes.isEmpty else { return false }
        let web = schemes.map { $0 == "http" || $0 == "https" }
        return onlyWebSchemes ? !web.contains(false) : web.contains(true)
    }

    /// `IntentFilter.needsVerification()` before Android 12: `autoVerify` and `handlesWebUris(true)`.
    public var asksLegacyVerification: Bool {
        autoVerify && handlesWebURIs(onlyWebSchemes: true)
    }
}
