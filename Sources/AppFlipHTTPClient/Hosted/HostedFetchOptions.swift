public import AppFlipCore

/// How to fetch a hosted file: from where, trusting whom, and how long to wait. What the platform reads and
/// how much is its `HostingPolicy`.
public struct HostedFetchOptions: Sendable, Hashable {
    /// Apple's CDN (or a mirror), or the host itself.
    public var source: HostedFileSource
    /// The certificate authorities to trust.
    public var trust: HostedFileTrust
    /// The whole fetch, connecting and the files it includes included, must finish within this.
    public var timeout: Duration

    /// Fetch from `source`, trusting `trust` (the system's trust store by default), within `timeout` (10 s).
    public init(source: HostedFileSource, trust: HostedFileTrust = .system, timeout: Duration = .seconds(10)) {
        self.source = source
        self.trust = trust
        self.timeout = timeout
    }
}

/// Where a hosted file is fetched from: the host itself, as Android does and iOS does for an associated
/// domain with `?mode=developer`, or, as iOS does otherwise, Apple's CDN.
public enum HostedFileSource: Sendable, Hashable {
    /// Apple's CDN, or a mirror of it: `BASE/HOST`.
    case cdn(base: String)
    /// `https://HOST[:port]` and the platform's well-known path. A port is only for a local test server:
    /// devices always use 443, and the file keeps its port-less URL.
    case direct(port: Int?)

    /// Apple's CDN path: `https://app-site-association.cdn-apple.com/a/v1/DOMAIN`.
    public static let appleCDNBase = "https://app-site-association.cdn-apple.com/a/v1"

    /// Apple's CDN for a plain entitlement, the domain itself for one with `?mode=developer`, as iOS chooses.
    public static func chosen(for domain: AssociatedDomain, cdnBase: String = appleCDNBase, port: Int? = nil) -> HostedFileSource {
        domain.modes.contains(.developer) ? .direct(port: port) : .cdn(base: cdnBase)
    }

    /// Where `host`'s file is: the URL the platform knows it by, and the URL to fetch.
    public func location(of host: String, policy: HostingPolicy) -> (url: String, fetchedFrom: String) {
        switch self {
        case .cdn(let base):
            let url = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + host
            return (url, url)
        case .direct(let port):
            return (policy.wellKnownURL(host: host), policy.wellKnownURL(host: host, port: port))
        }
    }
}

/// Which certificate authorities a fetch trusts: the system's, as a device does, or the ones in a PEM file
/// (`--ca-file`), for a private or test server.
public enum HostedFileTrust: Sendable, Hashable {
    /// The system's trust store.
    case system
    /// Only the certificates in this PEM file.
    case caFile(String)
}

/// Why a fetch could not start: the CA file is unreadable.
public struct HostedFetchError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}
