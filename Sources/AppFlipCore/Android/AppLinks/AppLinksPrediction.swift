/// The predicted `pm get-app-links` state of each of an app's hosts, per verifier and Android generation,
/// from the responses its hosts gave.
public enum AppLinksPrediction {
    /// Each verification host of `app` → its verdict, for one verifier and generation.
    public static func verdicts(
        for app: AndroidIdentity,
        verifier: AppLinkVerifier,
        generation: AndroidGeneration,
        responses: [String: FetchResult]
    ) -> [String: HostVerdict] {
        var verdicts: [String: HostVerdict] = [:]
        for host in app.verificationHosts {
            verdicts[host] = hostVerdict(host, app: app, verifier: verifier, responses: responses)
        }
        // Android 6–11: one failing host leaves every host unverified.
        if generation == .android11AndEarlier, let failed = app.verificationHosts.first(where: { verdicts[$0]?.state != .verified }) {
            for host in app.verificationHosts {
                verdicts[host] = HostVerdict(
                    state: .none,
                    reason: "Android 11 and earlier verify all hosts or none, and \(failed) failed: \(verdicts[failed]?.reason ?? "")"
                )
            }
        }
        return verdicts
    }

    /// One host's verdict on Android 12+.
    public static func hostVerdict(
        _ host: String,
        app: AndroidIdentity,
        verifier: AppLinkVerifier,
        responses: [String: FetchResult]
    ) -> HostVerdict {
        switch verifier {
        case .statementService:
            return StatementServiceVerifier.verdict(forManifestHost: host, package: app.package, signedBy: app.fingerprints, responses: responses)
        case .google:
            let apex = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
            let site = WebSite(scheme: "https", host: apex)
            return GoogleVerifier.verify(site: site, responses: responses).verdict(forPackage: app.package, signedBy: app.fingerprints)
        }
    }
}
