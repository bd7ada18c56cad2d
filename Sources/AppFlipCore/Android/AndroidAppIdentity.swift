/// What decides whether an Android app opens a link: its package name, the SHA-256 fingerprints of its
/// signing certificates (the current one and any it rotated from: Android compares statements with the
/// whole signing history, `StatementUtils.getCertFingerprintsFromPackageManager`), and its intent filters.
public struct AndroidAppIdentity: Sendable, Hashable {
    public let packageName: String
    /// Upper-case hex pairs with colons, as the device computes them.
    public let fingerprints: [String]
    public let intentFilters: [IntentFilter]

    public init(packageName: String, fingerprints: [String], intentFilters: [IntentFilter]) {
        self.packageName = packageName
        self.fingerprints = fingerprints
        self.intentFilters = intentFilters
    }

    /// Every host Android 12+ verifies for this app, each once, in filter order.
    public var verificationHosts: [String] {
        var hosts: [String] = []
        for host in intentFilters.flatMap(\.verificationHosts) where !hosts.contains(host) { hosts.append(host) }
        return hosts
    }
}
