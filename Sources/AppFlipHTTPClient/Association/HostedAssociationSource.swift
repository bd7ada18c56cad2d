public import AppFlipCore

/// Where the file is fetched from: as a device does, through Apple's CDN, or, for an associated domain with
/// `?mode=developer`, from the domain itself.
public enum HostedAssociationSource: Sendable, Hashable {
    /// Apple's CDN, or a mirror of it: `BASE/DOMAIN`. Devices fetch here unless the entitlement carries
    /// `?mode=developer`.
    case cdn(base: String)
    /// `https://DOMAIN[:port]/.well-known/apple-app-site-association`, as a developer-mode device fetches it. A
    /// port is only for a local test server: iOS always uses 443.
    case direct(port: Int?)

    /// Apple's CDN path: `https://app-site-association.cdn-apple.com/a/v1/DOMAIN`.
    public static let appleCDNBase = "https://app-site-association.cdn-apple.com/a/v1"

    /// Apple's CDN for a plain entitlement, the domain itself for one with `?mode=developer`, as iOS chooses.
    public static func chosen(for domain: AssociatedDomain, cdnBase: String = appleCDNBase, port: Int? = nil) -> HostedAssociationSource {
        domain.modes.contains(.developer) ? .direct(port: port) : .cdn(base: cdnBase)
    }

    /// The URL this source serves `host`'s file at.
    public func url(for host: String) -> String {
        switch self {
        case .cdn(let base):
            (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + host
        case .direct(let port):
            "https://\(host)\(port.map { ":\($0)" } ?? "")/.well-known/apple-app-site-association"
        }
    }
}
