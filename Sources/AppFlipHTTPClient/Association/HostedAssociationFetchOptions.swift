public import AppFlipCore

/// How to fetch: from where, trusting whom, and how long to wait.
public struct HostedAssociationFetchOptions: Sendable, Hashable {
    /// Apple's CDN (the default, as a device fetches) or the domain itself.
    public var source: HostedAssociationSource
    /// The certificate authorities to trust.
    public var trust: HostedAssociationTrust
    /// The whole fetch, connecting included, must finish within this.
    public var timeout: Duration
    /// The most body bytes read; past it the fetch stops reading and fails. Apple's limit, 128 KB.
    public var maximumSize: Int

    /// The defaults a device has: the CDN, the system's trust store; a 10 s timeout and Apple's 128 KB.
    public init(
        source: HostedAssociationSource = .cdn(base: HostedAssociationSource.appleCDNBase),
        trust: HostedAssociationTrust = .system,
        timeout: Duration = .seconds(10),
        maximumSize: Int = AssociationFile.maximumSize
    ) {
        self.source = source
        self.trust = trust
        self.timeout = timeout
        self.maximumSize = maximumSize
    }
}

/// Which certificate authorities the fetch trusts: the system's, as a device does, or the ones in a PEM file
/// (`--ca-file`), for a private or test server.
public enum HostedAssociationTrust: Sendable, Hashable {
    /// The system's trust store.
    case system
    /// Only the certificates in this PEM file.
    case caFile(String)
}
