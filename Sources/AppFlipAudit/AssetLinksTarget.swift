import AppFlipConfiguration
public import AppFlipCore
public import AppFlipHTTPClient

/// The Android association file an audit checks: a host's `/.well-known/assetlinks.json` (or a local copy)
/// for the partner's package and signing-certificate fingerprints, judged as `appflip assetlinks check` judges it.
public struct AssetLinksTarget: Sendable, Hashable {
    /// Where the statement list comes from.
    public var source: AssociationSource
    /// The partner app's package name.
    public var package: String
    /// Its signing certificates' SHA-256 fingerprints (current and rotated).
    public var fingerprints: [String]

    /// The statement list at `source` for `package` signed by `fingerprints`.
    public init(source: AssociationSource, package: String, fingerprints: [String]) {
        self.source = source
        self.package = package
        self.fingerprints = fingerprints
    }

    /// The `assetlinks.*` checks, each under its own id; an unreadable file or a host that does not answer is
    /// unreachable. `observer` is told of each file a hosted fetch fetches.
    public func run(observer: HostedFetchObserver? = nil) async throws(AuditUnreachable) -> [AuditResult] {
        let check = AssetLinksFileCheck(package: package, fingerprints: fingerprints)
        switch source {
        case .file(let path):
            let report = check.check(localFile: try AssociationTarget.read(path, "the assetlinks file"), path: path, host: "localhost")
            return report.auditResults(valid: AssetLinksFileCheck.valid, at: path)
                + HostingPolicy.assetLinks.auditResultsSkipped(localFile: path, give: "--assetlinks-domain")
        case .hosted(let host, let fetch):
            let report = await HostedCheckRunner(options: fetch, observer: observer).run(check, host: host)
            if let reason = report.couldNotRun {
                throw AuditUnreachable("the assetlinks file of \(host): \(reason)")
            }
            return report.auditResults(valid: AssetLinksFileCheck.valid)
        }
    }
}
