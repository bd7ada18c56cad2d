/// The host part of an associated domain, for the claim policy's overlap test.
///
/// Claims are compared per domain, not per path: two apps whose associated domains can cover the same host
/// conflict, whatever their AASA paths say, because a path split can change with every AASA update. A
/// wildcard `*.example.com` is taken to cover `example.com` as well, so that the test errs on refusing.
struct DomainClaim: Sendable, Hashable, CustomStringConvertible {
    let host: String
    let isWildcard: Bool

    /// Reads `applinks:host` or `applinks:*.host`; `nil` for anything else (the route table refuses those).
    init?(_ associatedDomain: String) {
        guard associatedDomain.hasPrefix("applinks:") else { return nil }
        var host = Substring(associatedDomain.dropFirst("applinks:".count))
        if let query = host.firstIndex(of: "?") { host = host[..<query] }  // `?mode=developer`
        isWildcard = host.hasPrefix("*.")
        if isWildcard { host = host.dropFirst(2) }
        guard !host.isEmpty else { return nil }
        self.host = String(host).lowercased()
    }

    var description: String { "applinks:" + (isWildcard ? "*." : "") + host }

    func overlaps(_ other: DomainClaim) -> Bool {
        switch (isWildcard, other.isWildcard) {
        case (false, false): host == other.host
        case (true, false): other.host == host || other.host.hasSuffix("." + host)
        case (false, true): host == other.host || host.hasSuffix("." + other.host)
        case (true, true): host == other.host || host.hasSuffix("." + other.host) || other.host.hasSuffix("." + host)
        }
    }
}
