import AppFlipConfiguration
public import AppFlipCore
public import AppFlipHTTPClient

/// Where an audit's association file comes from, iOS's or Android's: a local copy, or the file a host serves.
public enum AssociationSource: Sendable, Hashable {
    /// A local file: the hosting checks are skipped, and nothing it includes is fetched.
    case file(path: String)
    /// The file `host` serves, fetched and checked as `appflip aasa check` or `appflip assetlinks check` does:
    /// the hosting rules as well.
    case hosted(host: String, fetch: HostedFetchOptions)
}

/// The apple-app-site-association file an audit checks, the app id it must route the flip link to, and the
/// link. A local file gets `aasa.valid` and `aasa.routes-link`, its hosting checks skipped.
public struct AssociationTarget: Sendable, Hashable {
    /// Where the document comes from.
    public var source: AssociationSource
    /// The partner's app id, `TEAMID.bundle.id`.
    public var appID: String
    /// The flip link the file must route to the app.
    public var link: RawURL

    /// The file at `source` for `appID`, checked against `link`.
    public init(source: AssociationSource, appID: String, link: RawURL) {
        self.source = source
        self.appID = appID
        self.link = link
    }

    /// The association checks; an unreadable file or a host that does not answer is unreachable. `observer`
    /// is told of each file a hosted fetch fetches.
    public func run(observer: HostedFetchObserver? = nil) async throws(AuditUnreachable) -> [AuditResult] {
        switch source {
        case .file(let path):
            return AssociationAudit.run(json: try Self.read(path, "the association file"), source: path, appID: appID, link: link)
                + HostingPolicy.aasa.auditResultsSkipped(localFile: path, give: "--aasa-domain")
        case .hosted(let domain, let fetch):
            let report = await HostedCheckRunner(options: fetch, observer: observer).run(AASAFileCheck(appID: appID, urls: [link]), host: domain)
            if let reason = report.couldNotRun {
                throw AuditUnreachable("the hosted association file of \(domain): \(reason)")
            }
            return report.auditResults(valid: AASAFileCheck.valid) + [Self.routesLink(report)]
        }
    }

    /// A local association file's bytes; unreadable, the audit cannot run.
    static func read(_ path: String, _ what: String) throws(AuditUnreachable) -> [UInt8] {
        do {
            return try ConfigurationFile.read(path)
        } catch {
            throw AuditUnreachable("\(what): \(error)")
        }
    }

    /// `aasa.routes-link`, which `aasa check` reports as two checks: the file names the app (`aasa.app-id`),
    /// and the link's decision (`aasa.url-decision`) is a match.
    static func routesLink(_ report: HostedReport<AASAReportDetails>) -> AuditResult {
        // The app must be named before the link's decision means anything.
        let named = report.check(AASAFileCheck.appID)
        guard let check = named?.status == .failed ? named : report.check(AASAFileCheck.urlDecision) else {
            let why = report.check(AASAFileCheck.valid)?.evidence ?? "a hosting rule failed"
            return AuditResult(.associationRoutesLink, .skipped, "\(report.url) was not loaded: \(why)")
        }
        return AuditResult(
            .associationRoutesLink,
            check.status.auditOutcome,
            check.evidence,
            evidence: ["\(check.rule) at \(report.url): \(check.evidence)"]
        )
    }
}
