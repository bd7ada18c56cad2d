public import AppFlipCore

/// How to fetch a statement list: trusting whom, how long, how much.
public struct AssetLinksFetchOptions: Sendable, Hashable {
    /// The certificate authorities to trust.
    public var trust: HostedAssociationTrust
    /// The whole fetch, the file and its includes, connecting included, must finish within this.
    public var timeout: Duration
    /// The most body bytes read per file: StatementService's 1 MiB (`UrlFetcher.kt`); past it reading stops.
    public var maximumSize: Int
    /// Connect to this port instead of 443: only for a local test server, Android always uses 443. The
    /// statement list keeps its port-less URL, the one the verifiers look up.
    public var port: Int?

    /// A device's defaults: the system's trust store, 10 s, 1 MiB, port 443.
    public init(
        trust: HostedAssociationTrust = .system,
        timeout: Duration = .seconds(10),
        maximumSize: Int = StatementServiceVerifier.sizeLimit,
        port: Int? = nil
    ) {
        self.trust = trust
        self.timeout = timeout
        self.maximumSize = maximumSize
        self.port = port
    }
}
