import AppFlipArtifacts
import AppFlipCore
import AppFlipHTTPClient
import FoundationEssentials

/// The iOS artifacts' cross-checks: the associated domains the app claims against the flip link's host, its
/// profile's kind and expiry, and its app ID against the flip host's apple-app-site-association file, judged by
/// the core's one AASA check (`AASAFileCheck`).
struct IOSArtifactAudit {
    let app: IOSApp
    let target: AppArtifactTarget

    func record(in ledger: AuditLedger) async {
        applinksHost().record(.appIOSApplinksHost, in: ledger)
        developerMode().record(.appIOSDeveloperMode, in: ledger)
        profileExpiry().record(.appIOSProfileExpiry, in: ledger)
        let (appID, routes) = await association()
        if case .couldNotRun(let why) = appID { ledger.unreachable(why) }
        appID.record(.appIOSAASAAppID, in: ledger)
        routes.record(.appIOSAASARoutesLink, in: ledger)
    }

    static let noLink = ArtifactVerdict.notGiven("give --link: the flip link, whose host the app must claim")

    /// The `applinks:` entries the app claims for the flip link.
    func entries(for link: RawURL) -> [AssociatedDomain] {
        app.associatedDomains?.applinks.filter { $0.matches(link) } ?? []
    }

    func applinksHost() -> ArtifactVerdict {
        guard let link = target.link else { return Self.noLink }
        guard let (source, entitlements) = app.claimedEntitlements else {
            return .nothingToJudge(
                "no signed entitlements or .entitlements file among the artifacts (a profile only allows domains): give the .ipa, its executable or the .entitlements file"
            )
        }
        let claimed: String
        switch entitlements.associatedDomains {
        case nil: return .broke("the app claims no associated domains (\(source.rawValue): no \(Entitlements.associatedDomainsKey))")
        case .anyDomain: return .broke("the app claims \"*\" (\(source.rawValue)), which names no host: an app claims each domain as applinks:<host>")
        case .malformed(let value):
            return .broke("the app's \(Entitlements.associatedDomainsKey) is not a list of strings (\(source.rawValue)): \(value)")
        case .entries(let all):
            // Xcode expands build settings in a project's .entitlements file; the signed executable has the values.
            if source == .entitlementsFile, all.contains(where: { $0.entry.contains("$(") }) {
                return .nothingToJudge(
                    "the .entitlements file uses build settings ($(…)), which Xcode expands when it signs: give the .ipa or its executable"
                )
            }
            claimed = all.map(\.entry).joined(separator: ", ")
        }
        let matching = entries(for: link)
        guard !matching.isEmpty else {
            return .broke("no applinks: entry claims \(link.host) (\(link)); the app claims \(claimed) (\(source.rawValue))")
        }
        return .held("the app claims \(link.host) by \(matching.map(\.description).joined(separator: ", ")) (\(source.rawValue))")
    }

    func developerMode() -> ArtifactVerdict {
        guard let link = target.link else { return Self.noLink }
        guard let profile = app.profile?.value else {
            return .nothingToJudge(
                "no provisioning profile among the artifacts, whose kind says whether the build is for distribution: give the .ipa or its embedded.mobileprovision"
            )
        }
        switch profile.kind {
        case .development, .unknown:
            return .nothingToJudge("a \(profile.kind.rawValue) profile: ?mode=developer is honoured for development-signed apps")
        case .adHoc, .enterprise, .appStore: break
        }
        let matching = entries(for: link)
        guard !matching.isEmpty else { return .nothingToJudge("no applinks: entry claims \(link.host): app.ios.applinks-host") }
        guard matching.allSatisfy({ $0.modes.contains(.developer) }) else {
            return .held(
                "the \(profile.kind.rawValue) build claims \(link.host) by \(matching.filter { !$0.modes.contains(.developer) }.map(\.description).joined(separator: ", "))"
            )
        }
        return .broke(
            "the \(profile.kind.rawValue) build claims \(link.host) only by \(matching.map(\.description).joined(separator: ", ")): iOS honours ?mode=developer only for development-signed apps, so users' devices never open the flip link in the app"
        )
    }

    func profileExpiry() -> ArtifactVerdict {
        guard let read = app.profile else {
            return .nothingToJudge("no provisioning profile among the artifacts: give the .ipa or its embedded.mobileprovision")
        }
        guard let expiry = read.value.expirationDate else { return .broke("\(read.entry) names no ExpirationDate") }
        let date = expiry.formatted(.iso8601)
        guard read.value.isExpired(at: target.now) else { return .held("\(read.entry) expires \(date)") }
        return .broke("\(read.entry) expired \(date)")
    }

    /// The app ID the artifacts carry: the signed entitlements', else the entitlements file's (without build
    /// variables such as `$(AppIdentifierPrefix)`), else the profile's explicit one.
    var appID: Sourced<AppleAppID>? {
        let ordered = [IOSAppSource.signature, .entitlementsFile, .profile]
        return ordered.lazy.compactMap { source in
            app.appIDs.first { $0.source == source && !$0.value.isWildcard && !$0.value.description.contains("$(") }
        }.first
    }

    /// `app.ios.aasa-app-id` and `app.ios.aasa-routes-link`, from the flip host's file.
    func association() async -> (ArtifactVerdict, ArtifactVerdict) {
        guard let link = target.link else { return (Self.noLink, Self.noLink) }
        guard let appID else {
            let none = ArtifactVerdict.nothingToJudge(
                "no explicit app ID among the artifacts: give the .ipa, its executable, the .entitlements file or the profile"
            )
            return (none, none)
        }
        let check = AASAFileCheck(appID: appID.value.description, urls: [link])
        let report: HostedReport<AASAReportDetails>
        if let path = target.aasaFile {
            do {
                report = check.check(localFile: try AssociationTarget.read(path, "the association file"), path: path, host: link.host.lowercased())
            } catch {
                return (.couldNotRun("\(error)"), .couldNotRun("\(error)"))
            }
        } else {
            let entry = entries(for: link).first ?? (try? AssociatedDomain("applinks:" + link.host))
            guard let entry else { return (.nothingToJudge("\(link.host) is no domain"), .nothingToJudge("\(link.host) is no domain")) }
            report = await HostedCheckRunner(options: target.aasaFetch(for: entry)).run(check, host: link.host)
        }
        if let reason = report.couldNotRun {
            let why = "the association file of \(link.host): \(reason)"
            return (.couldNotRun(why), .couldNotRun(why))
        }
        let named = "\(appID.value) (\(appID.source.rawValue))"
        guard let listed = report.check(AASAFileCheck.appID) else {
            let cause = report.failures.first.map { "\($0.rule): \($0.evidence)" } ?? "it was not loaded"
            return (
                .broke("\(report.url) names no app, so not \(named): \(cause)"),
                .nothingToJudge("app.ios.aasa-app-id failed: the file does not name the app")
            )
        }
        guard listed.status == .passed else {
            return (.broke("\(report.url): \(listed.evidence)"), .nothingToJudge("app.ios.aasa-app-id failed: the file does not name the app"))
        }
        let appIDVerdict = ArtifactVerdict.held("\(report.url) lists \(named)")
        guard let decision = report.check(AASAFileCheck.urlDecision) else {
            return (appIDVerdict, .nothingToJudge("the file made no decision for \(link)"))
        }
        let evidence = "\(report.url) for \(appID.value): \(decision.evidence)"
        return (appIDVerdict, decision.status == .passed ? .held(evidence) : .broke(evidence))
    }
}
