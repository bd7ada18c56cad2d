import AppFlipConfiguration
public import AppFlipCore
public import AppFlipHTTPClient

/// The association file an audit checks, the app id it must route the flip link to, and the link.
public struct AssociationTarget: Sendable, Hashable {
    /// Where the apple-app-site-association document comes from.
    public enum Source: Sendable, Hashable {
        /// A local file: `aasa.valid` and `aasa.routes-link`; the hosting checks are skipped.
        case file(path: String)
        /// The file `domain` (a host) serves, fetched as `appflip aasa check` fetches it: the hosting rules
        /// (`aasa.hosted-*`) as well.
        case hosted(domain: String, fetch: HostedAssociationFetchOptions)
    }

    /// Where the document comes from.
    public var source: Source
    /// The partner's app id, `TEAMID.bundle.id`.
    public var appID: String
    /// The flip link the file must route to the app.
    public var link: RawURL

    /// The file at `source` for `appID`, checked against `link`.
    public init(source: Source, appID: String, link: RawURL) {
        self.source = source
        self.appID = appID
        self.link = link
    }

    /// The association checks; an unreadable file or a host that does not answer is unreachable.
    public func run() async throws(AuditUnreachable) -> [AuditResult] {
        switch source {
        case .file(let path):
            let bytes: [UInt8]
            do {
                bytes = try ConfigurationFile.read(path)
            } catch {
                throw AuditUnreachable("the association file: \(error)")
            }
            let notHosted = "\(path) is a local file; give --aasa-domain to check the hosted one"
            return AssociationAudit.run(json: bytes, source: path, appID: appID, link: link)
                + Self.hostingChecks.map { AuditResult($0.check, .skipped, notHosted) }
        case .hosted(let domain, let fetch):
            let checker = HostedAssociationChecker(fetcher: HostedAssociationFetcher(options: fetch))
            let report = await checker.check(domain: domain, appID: appID, urls: [link], committed: nil)
            if let failure = report.couldNotRun {
                throw AuditUnreachable("the hosted association file of \(domain): \(failure)")
            }
            return Self.results(of: report)
        }
    }

    /// The hosting rules the audit reports, each as its `aasa.hosted-*` check.
    static let hostingChecks: [(rule: HostingRule, check: CheckSpec)] = [
        (.https, .associationHostedHTTPS), (.noRedirect, .associationHostedNoRedirect), (.status, .associationHostedStatus),
        (.contentType, .associationHostedContentType), (.size, .associationHostedSize),
    ]

    /// The checker's report as audit results: each hosting rule as its `aasa.hosted-*` check, `file.valid` as
    /// `aasa.valid` (a warning when the loader warned), `file.app-id` and the link's `url.decision` as
    /// `aasa.routes-link`.
    static func results(of report: HostedAssociationReport) -> [AuditResult] {
        func outcome(_ check: HostedAssociationCheck) -> AuditOutcome {
            switch check.status {
            case .passed: .pass
            case .failed: .fail
            case .skipped: .skipped
            }
        }
        func evidence(_ check: HostedAssociationCheck) -> [String] { ["\(check.rule) at \(report.url): \(check.evidence)"] }

        var results: [AuditResult] = []
        for check in report.checks {
            if let hosted = hostingChecks.first(where: { $0.rule.rawValue == check.rule }) {
                results.append(AuditResult(hosted.check, outcome(check), check.evidence, evidence: evidence(check)))
            }
        }
        let valid = report.checks.first { $0.rule == HostingRule.validFile.rawValue }
        switch (valid.map(outcome), report.warnings.isEmpty) {
        case (.pass?, false):
            results.append(
                AuditResult(
                    .associationValid,
                    .warning,
                    "\(report.url) is valid, with \(report.warnings.count) warning(s)",
                    evidence: report.warnings.map(\.description)
                )
            )
        case (let validOutcome?, _):
            results.append(AuditResult(.associationValid, validOutcome, valid?.evidence ?? "", evidence: valid.map(evidence) ?? []))
        case (nil, _):
            break
        }
        // The app must be named before the link's decision means anything.
        let appNamed = report.checks.first { $0.rule == "file.app-id" }
        let decision = report.checks.first { $0.rule == "url.decision" }
        if let appNamed, appNamed.status == .failed {
            results.append(AuditResult(.associationRoutesLink, .fail, appNamed.evidence, evidence: evidence(appNamed)))
        } else if let decision {
            results.append(AuditResult(.associationRoutesLink, outcome(decision), decision.evidence, evidence: evidence(decision)))
        } else {
            results.append(
                AuditResult(.associationRoutesLink, .skipped, "\(report.url) was not loaded: \(valid?.evidence ?? "a hosting rule failed")")
            )
        }
        return results
    }
}
