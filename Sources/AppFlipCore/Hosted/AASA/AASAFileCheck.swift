/// iOS's own rules for a domain's hosted apple-app-site-association file, once the hosting rules held: it
/// loads (`aasa.valid`), names the app (`aasa.app-id`), routes each URL to it (`aasa.url-decision`), and means
/// what a committed file means (`aasa.drift`). What `appflip aasa check` and the audit's association target
/// run, through `HostedCheckRunner`; `appflip aasa fetch` runs it with no app, to load the file.
public struct AASAFileCheck: HostedFileCheck {
    /// The app the file must serve; nil to load the file only (`aasa fetch`).
    public let appID: String?
    /// The universal links the file must route to the app.
    public let urls: [RawURL]
    /// The committed file to compare the hosted one with.
    public let committed: AssociationFile?

    /// The checks for `appID`, each of `urls`, and drift from `committed`.
    public init(appID: String?, urls: [RawURL] = [], committed: AssociationFile? = nil) {
        self.appID = appID
        self.urls = urls
        self.committed = committed
    }

    public var policy: HostingPolicy { .aasa }

    /// iOS reads no other file.
    public static func includes(of fetch: HostedFetch) -> [String] { [] }

    public func judge(host: String, fetches: [HostedFetch], hosting: HostingVerdict) -> (checks: [HostedCheck], details: AASAReportDetails) {
        var details = AASAReportDetails(domain: host, appID: appID)
        guard let body = hosting.body else { return ([.skipped(Self.valid, because: hosting.failed?.id ?? "the fetch")], details) }
        let file: AssociationFile
        do {
            file = try AssociationFile(json: body)
        } catch {
            details.refusal = error.diagnostics
            let first = error.errors.first.map { ": " + $0.description } ?? ""
            let count = error.errors.count == 1 ? "1 error" : "\(error.errors.count) errors"
            return ([HostedCheck(Self.valid, .failed, "the file was refused (\(count))\(first)")], details)
        }
        details.bytes = body
        details.file = file
        let warnings = file.warnings.map(\.description)
        var checks = [
            HostedCheck(
                Self.valid,
                .passed,
                warnings.isEmpty ? "loaded, no warnings" : "loaded with \(warnings.count) warning(s): " + warnings.joined(separator: "; ")
            )
        ]
        guard let appID else { return (checks, details) }
        checks.append(Self.appIDCheck(file, appID: appID))
        let domain = try? AssociatedDomain("applinks:" + host)
        checks += urls.map { Self.urlCheck(file, appID: appID, url: $0, domain: domain) }
        if let committed {
            let urls = AssociationDrift.probeURLs(host: host, files: [committed, file], extra: urls)
            let drift = AssociationDrift(committed: committed, hosted: file, urls: urls)
            details.drift = drift
            checks.append(Self.driftCheck(drift))
        }
        return (checks, details)
    }

    /// The body loads as an association file, with appflipd's loader.
    public static let valid = HostedRule(
        id: "aasa.valid",
        title: "the association file is valid",
        sentence: "The apple-app-site-association file parses and follows Apple's format.",
        source: AuditSource.appleAASA
    )

    /// The app is one the file's `applinks` details name.
    public static let appID = HostedRule(
        id: "aasa.app-id",
        title: "the file's applinks details name the app",
        sentence: "The app id is listed in the appIDs of the file's applinks details.",
        source:
            "Apple, Details: appIDs lists the apps the entry applies to (https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary)"
    )

    static func appIDCheck(_ file: AssociationFile, appID: String) -> HostedCheck {
        let listed = file.appIDs.contains(appID)
        let named = file.appIDs.isEmpty ? "no app" : file.appIDs.joined(separator: ", ")
        return HostedCheck(
            Self.appID,
            passed: listed,
            listed ? "\(appID) is listed" : "\(appID) is not in applinks details; the file names \(named)"
        )
    }

    /// Each URL is a universal link of the domain, and the file's deciding rule for the app is a match.
    public static let urlDecision = HostedRule(
        id: "aasa.url-decision",
        title: "the file routes the URL to the app",
        sentence:
            "Each URL is a universal link of the domain (https, no port, no userinfo, that host), and the first component of the file that matches it for the app is not an exclusion.",
        source:
            "Apple, Components: the first component that matches decides (https://developer.apple.com/documentation/bundleresources/applinks/details-swift.dictionary/components-swift.dictionary); docs/routing.md"
    )

    static func urlCheck(_ file: AssociationFile, appID: String, url: RawURL, domain: AssociatedDomain?) -> HostedCheck {
        let name = "\(urlDecision.id) \(url)"
        if let domain, !domain.matches(url) {
            return HostedCheck(
                urlDecision,
                name: name,
                .failed,
                "\(url) is not a universal link of \(domain) (https, no port, no userinfo, that host)"
            )
        }
        let decision = file.decide(appID: appID, url: url)
        let evidence = decision.rule == nil ? "no_match: no rule for \(appID) decides \(url)" : decision.description
        return HostedCheck(urlDecision, name: name, passed: decision.outcome == .match, evidence)
    }

    /// The hosted file means what the committed one means.
    public static let drift = HostedRule(
        id: "aasa.drift",
        title: "the hosted file means what the committed file means",
        sentence:
            "The hosted file names the same apps as the committed one, and decides every compared URL alike for every app: the same decision by the same rule.",
        source: "docs/routing.md, Drift: the two files decide every compared URL alike for every app"
    )

    static func driftCheck(_ drift: AssociationDrift) -> HostedCheck {
        var parts: [String] = []
        if !drift.appeared.isEmpty { parts.append("apps appeared: " + drift.appeared.joined(separator: ", ")) }
        if !drift.vanished.isEmpty { parts.append("apps vanished: " + drift.vanished.joined(separator: ", ")) }
        parts += drift.changes.map(\.description)
        return HostedCheck(Self.drift, passed: drift.isEmpty, drift.isEmpty ? "no app or URL decision changed" : parts.joined(separator: "; "))
    }
}

/// What iOS's check adds to the report: the app, the file as served and loaded (or the loader's refusal), its
/// warnings, and drift.
public struct AASAReportDetails: HostedReportDetails {
    /// The host checked.
    public let domain: String
    /// The app the file must serve, nil when none was named.
    public let appID: String?
    /// The body, as served, when it loaded.
    public internal(set) var bytes: [UInt8]?
    /// The loaded file.
    public internal(set) var file: AssociationFile?
    /// The loader's diagnostics when it refused the file.
    public internal(set) var refusal: [AASADiagnostic] = []
    /// The drift from the committed file, when one was given and the hosted file loaded.
    public internal(set) var drift: AssociationDrift?

    init(domain: String, appID: String?) {
        self.domain = domain
        self.appID = appID
    }

    /// The loader's warnings: skipped entries and components among them.
    public var loaderWarnings: [AASADiagnostic] { file?.warnings ?? refusal.filter { $0.severity == .warning } }

    public var suite: String { "aasa check \(domain)" }

    public func heading(url: String) -> String { "\(domain) for \(appID ?? "no app") (\(url))" }

    public var lines: [String] { loaderWarnings.map { "⚠ " + $0.description } }

    /// The loader's warnings about a file it loaded.
    public var findings: [String] { file?.warnings.map(\.description) ?? [] }

    /// `domain`, `appId`, `warnings` (`code`, `pointer`, `message`), and with a committed file `drift`
    /// (`appeared`, `vanished`, `changes` with `appId`, `url`, `before`, `after`).
    public var members: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "domain": .string(domain),
            "appId": appID.map(JSONValue.string) ?? .null,
            "warnings": .array(
                loaderWarnings.map { .object(["code": .string($0.code.rawValue), "pointer": .string($0.pointer), "message": .string($0.message)]) }
            ),
        ]
        if let drift {
            members["drift"] = .object([
                "appeared": .array(drift.appeared.map(JSONValue.string)),
                "vanished": .array(drift.vanished.map(JSONValue.string)),
                "changes": .array(
                    drift.changes.map { change in
                        .object([
                            "appId": .string(change.appID),
                            "url": .string(change.url),
                            "before": .string(change.before.description),
                            "after": .string(change.after.description),
                        ])
                    }
                ),
            ])
        }
        return members
    }
}
