/// One `applinks:` entry of an app's Associated Domains entitlement: the hosts whose universal links the
/// app may claim.
///
/// `applinks:example.com` claims exactly `example.com`; `applinks:*.example.com` claims every subdomain of
/// `example.com` at any depth, never `example.com` itself. Hosts compare case-insensitively (ASCII; an
/// internationalised host must be written in its `xn--` form). A URL with a port, with userinfo, or with a
/// scheme other than `https` is never a universal link.
///
/// The `?mode=developer`, `?mode=managed` and `?mode=developer+managed` suffixes are accepted and kept in
/// `modes`. appflipd has no developer or managed devices, so they do not change matching.
public struct AssociatedDomain: Sendable, Hashable, CustomStringConvertible {
    /// The entitlement's `?mode=` suffix: `developer` and `managed` limit where iOS honours it.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case developer
        case managed
    }

    /// The host, lower-cased, without the `*.` of a wildcard.
    public let host: String
    /// True for `*.host`, which matches subdomains only.
    public let isWildcard: Bool
    /// The modes named by a `?mode=` suffix; empty without one.
    public let modes: Set<Mode>
    /// The entry in its canonical form, made once: every handoff's reply names it.
    public let description: String

    /// Parses an entitlement entry such as `applinks:example.com` or `applinks:*.example.com?mode=developer`.
    public init(_ entitlement: String) throws(AssociatedDomainError) {
        let prefix = "applinks:"
        guard entitlement.hasPrefix(prefix) else {
            if let colon = entitlement.firstIndex(of: ":"), !entitlement[..<colon].contains(".") {
                throw AssociatedDomainError(entitlement, .notApplinks(String(entitlement[..<colon])))
            }
            throw AssociatedDomainError(entitlement, .missingPrefix)
        }
        var rest = Substring(entitlement.dropFirst(prefix.count))
        var modes: Set<Mode> = []
        if let question = rest.firstIndex(of: "?") {
            let suffix = rest[rest.index(after: question)...]
            guard suffix.hasPrefix("mode="), !suffix.dropFirst(5).isEmpty else {
                throw AssociatedDomainError(entitlement, .invalidMode(String(suffix)))
            }
            for name in suffix.dropFirst(5).split(separator: "+", omittingEmptySubsequences: false) {
                guard let mode = Mode(rawValue: String(name)) else {
                    throw AssociatedDomainError(entitlement, .invalidMode(String(suffix)))
                }
                modes.insert(mode)
            }
            rest = rest[..<question]
        }
        let isWildcard = rest.hasPrefix("*.")
        if isWildcard { rest = rest.dropFirst(2) }
        try Self.checkHost(rest, in: entitlement)
        let host = String(rest).lowercasedASCII
        self.host = host
        self.isWildcard = isWildcard
        self.modes = modes
        var description = "applinks:" + (isWildcard ? "*." : "") + host
        if !modes.isEmpty {
            description += "?mode=" + Mode.allCases.filter(modes.contains).map(\.rawValue).joined(separator: "+")
        }
        self.description = description
    }

    /// Whether this entry claims `host`, compared case-insensitively.
    public func matches(host candidate: String) -> Bool {
        let candidate = candidate.lowercasedASCII
        guard isWildcard else { return candidate == host }
        return candidate.utf8.count > host.utf8.count + 1 && candidate.hasSuffix("." + host)
    }

    /// Whether this entry claims `url`: `https`, no userinfo, no port, and a matching host.
    public func matches(_ url: RawURL) -> Bool {
        Self.isUniversalLinkShaped(url) && matches(host: url.host)
    }

    /// Only `https` URLs without userinfo or port can be universal links.
    static func isUniversalLinkShaped(_ url: RawURL) -> Bool {
        url.port == nil && url.userinfo == nil && url.normalizedScheme == "https"
    }

    /// DNS host names: dot-separated labels of ASCII letters, digits and `-`, each 1 to 63 long, 253 in all.
    private static func checkHost(_ host: Substring, in entitlement: String) throws(AssociatedDomainError) {
        guard !host.isEmpty else { throw AssociatedDomainError(entitlement, .emptyHost) }
        guard host.utf8.count <= 253 else { throw AssociatedDomainError(entitlement, .invalidHost("longer than 253 characters")) }
        for label in host.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty else { throw AssociatedDomainError(entitlement, .invalidHost("it has an empty label")) }
            guard label.utf8.count <= 63 else { throw AssociatedDomainError(entitlement, .invalidHost("a label is longer than 63 characters")) }
            if let bad = label.unicodeScalars.first(where: {
                !($0.isASCII && (UInt8($0.value).isASCIILetter || UInt8($0.value).isASCIIDigit || $0 == "-"))
            }) {
                let hint = bad.isASCII ? "" : " (write an internationalised host in its xn-- form)"
                throw AssociatedDomainError(entitlement, .invalidHost("it contains \"\(bad)\"\(hint)"))
            }
        }
    }
}
