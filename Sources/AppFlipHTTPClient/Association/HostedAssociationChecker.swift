public import AppFlipCore

/// Checks a domain's hosted file for one app as iOS would use it: every hosting rule, that the file names the
/// app, what it decides for each URL, and (given a committed file) the drift between the two. What `appflip
/// aasa check` runs and `appflip audit` runs for its association-file checks.
public struct HostedAssociationChecker: Sendable {
    /// How the file is fetched.
    public let fetcher: HostedAssociationFetcher

    /// A checker that fetches with `fetcher`.
    public init(fetcher: HostedAssociationFetcher) {
        self.fetcher = fetcher
    }

    /// Fetches `domain`'s file and checks it for `appID`. Each URL passes when the file routes it to the app
    /// (`match`); `committed` adds the `drift` check, which passes when both files mean the same.
    public func check(domain: String, appID: String, urls: [RawURL], committed: AssociationFile?) async -> HostedAssociationReport {
        let url = fetcher.options.source.url(for: domain)
        let hosted: HostedAssociationFile
        do {
            hosted = try await fetcher.fetch(domain: domain)
        } catch {
            return HostedAssociationReport(
                domain: domain,
                url: url,
                appID: appID,
                checks: error.isUnreachable ? [] : Self.hostingChecks(failure: error),
                warnings: error.diagnostics.filter { $0.severity == .warning },
                drift: nil,
                couldNotRun: error.isUnreachable ? error : nil
            )
        }
        var checks = Self.hostingChecks(failure: nil, hosted: hosted)
        checks.append(Self.appIDCheck(hosted.file, appID: appID))
        let associated = try? AssociatedDomain("applinks:" + domain)
        for target in urls {
            checks.append(Self.urlCheck(hosted.file, appID: appID, url: target, domain: associated))
        }
        var drift: AssociationDrift?
        if let committed {
            let compared = AssociationDrift(
                committed: committed,
                hosted: hosted.file,
                urls: AssociationDrift.probeURLs(host: domain, files: [committed, hosted.file], extra: urls)
            )
            drift = compared
            checks.append(Self.driftCheck(compared))
        }
        return HostedAssociationReport(
            domain: domain,
            url: hosted.url,
            appID: appID,
            checks: checks,
            warnings: hosted.file.warnings,
            drift: drift,
            couldNotRun: nil
        )
    }

    /// One check per hosting rule: those before the failure passed, the failure failed, the rest skipped.
    static func hostingChecks(failure: HostedAssociationFailure?, hosted: HostedAssociationFile? = nil) -> [HostedAssociationCheck] {
        let failedIndex = failure.flatMap { HostingRule.fetchOrder.firstIndex(of: $0.rule) }
        return HostingRule.fetchOrder.enumerated().compactMap { index, rule in
            // Reaching the host is a precondition, not a check: a report exists only once it answered.
            guard rule != .reachable else { return nil }
            let status: HostedAssociationCheck.Status
            let evidence: String
            switch failedIndex {
            case let failed? where index == failed:
                status = .failed
                evidence = failure?.evidence ?? ""
            case let failed? where index > failed:
                status = .skipped
                evidence = "not checked: \(HostingRule.fetchOrder[failed].rawValue) failed"
            default:
                status = .passed
                evidence = hosted.map { passedEvidence(rule, $0) } ?? "held"
            }
            return HostedAssociationCheck(rule: rule.rawValue, title: rule.title, status: status, evidence: evidence, source: rule.source)
        }
    }

    private static func passedEvidence(_ rule: HostingRule, _ hosted: HostedAssociationFile) -> String {
        switch rule {
        case .reachable, .https: "fetched \(hosted.url)"
        case .noRedirect, .status: "200 OK"
        case .contentType: "Content-Type \(hosted.contentType)"
        case .size: "\(hosted.bytes.count) bytes"
        case .validFile:
            hosted.file.warnings.isEmpty
                ? "loaded, no warnings"
                : "loaded with \(hosted.file.warnings.count) warning(s): " + hosted.file.warnings.map(\.description).joined(separator: "; ")
        }
    }

    static func appIDCheck(_ file: AssociationFile, appID: String) -> HostedAssociationCheck {
        let listed = file.appIDs.contains(appID)
        return HostedAssociationCheck(
            rule: "file.app-id",
            title: "the file's applinks details name the app",
            status: listed ? .passed : .failed,
            evidence: listed
                ? "\(appID) is listed"
                : "\(appID) is not in applinks details; the file names \(file.appIDs.isEmpty ? "no app" : file.appIDs.joined(separator: ", "))",
            source:
                "Apple, Details: appIDs lists the apps the entry applies to (https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary)"
        )
    }

    static func urlCheck(_ file: AssociationFile, appID: String, url: RawURL, domain: AssociatedDomain?) -> HostedAssociationCheck {
        let evidence: String
        let status: HostedAssociationCheck.Status
        if let domain, !domain.matches(url) {
            status = .failed
            evidence = "\(url) is not a universal link of \(domain) (https, no port, no userinfo, that host)"
        } else {
            let decision = file.decide(appID: appID, url: url)
            status = decision.outcome == .match ? .passed : .failed
            evidence = decision.rule == nil ? "no_match: no rule for \(appID) decides \(url)" : decision.description
        }
        return HostedAssociationCheck(
            rule: "url.decision",
            name: "url.decision \(url)",
            title: "the file routes the URL to the app",
            status: status,
            evidence: evidence,
            source:
                "Apple, Components: the first component that matches decides (https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary/components-swift.dictionary); docs/routing.md"
        )
    }

    static func driftCheck(_ drift: AssociationDrift) -> HostedAssociationCheck {
        var parts: [String] = []
        if !drift.appeared.isEmpty { parts.append("apps appeared: " + drift.appeared.joined(separator: ", ")) }
        if !drift.vanished.isEmpty { parts.append("apps vanished: " + drift.vanished.joined(separator: ", ")) }
        parts += drift.changes.map(\.description)
        return HostedAssociationCheck(
            rule: "drift",
            title: "the hosted file means what the committed file means",
            status: drift.isEmpty ? .passed : .failed,
            evidence: drift.isEmpty ? "no app or URL decision changed" : parts.joined(separator: "; "),
            source: "docs/routing.md, Drift: the two files decide every compared URL alike for every app"
        )
    }
}
