/// The predicted `pm get-app-links` state of each of an app's hosts, per verifier and Android generation,
/// from the responses its hosts gave.
public enum AppLinksPrediction {
    /// Each host `generation` verifies for `app` → its verdict, for one verifier. Before Android 12 the app is
    /// verified for all its hosts or for none, so one failing host makes every host `none` (and a host whose
    /// verdict appflip could not judge, with none failing, leaves every host unjudged).
    public static func verdicts(
        for app: AndroidIdentity,
        verifier: AppLinkVerifier,
        generation: AndroidGeneration,
        responses: [String: FetchResult]
    ) -> [String: HostVerdict] {
        let hosts = app.verificationHosts(on: generation)
        var verdicts: [String: HostVerdict] = [:]
        for host in hosts {
            verdicts[host] = hostVerdict(host, app: app, verifier: verifier, generation: generation, responses: responses)
        }
        guard generation == .android11AndEarlier else { return verdicts }
        let failed = hosts.first { verdicts[$0]?.state != .verified && verdicts[$0]?.state != .couldNotJudge }
        if let failed = failed ?? hosts.first(where: { verdicts[$0]?.state == .couldNotJudge }), let verdict = verdicts[failed] {
            let judged = verdict.state != .couldNotJudge
            let why = judged ? "\(failed) failed" : "appflip could not judge \(failed)"
            for host in hosts {
                verdicts[host] = HostVerdict(
                    state: judged ? .none : .couldNotJudge,
                    reason: "Android 11 and earlier verify all hosts or none, and \(why): \(verdict.reason)"
                )
            }
        }
        return verdicts
    }

    /// One host's verdict, as the verifier of `generation` gives it (Android 6–11's StatementService reads
    /// at most 1 MiB of a body; its successor reads on).
    public static func hostVerdict(
        _ host: String,
        app: AndroidIdentity,
        verifier: AppLinkVerifier,
        generation: AndroidGeneration = .android12,
        responses: [String: FetchResult]
    ) -> HostVerdict {
        switch verifier {
        case .statementService:
            return StatementServiceVerifier.verdict(
                forManifestHost: host,
                package: app.package,
                signedBy: app.fingerprints,
                legacy: generation == .android11AndEarlier,
                responses: responses
            )
        case .google:
            let apex = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
            let site = WebSite(scheme: "https", host: apex)
            return GoogleVerifier.verify(site: site, responses: responses).verdict(forPackage: app.package, signedBy: app.fingerprints)
        }
    }
}
