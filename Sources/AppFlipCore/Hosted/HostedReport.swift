/// A platform's own rules for its hosted file, judged once the hosting rules are: iOS's `AASAFileCheck`,
/// Android's `AssetLinksFileCheck`. `check(host:fetches:hosted:)` makes the report; the fetch is the caller's
/// (`HostedCheckRunner` in AppFlipHTTPClient).
public protocol HostedFileCheck: Sendable {
    /// What the platform adds to the report.
    associatedtype Details: HostedReportDetails

    /// How the platform fetches its file and judges the hosting rules.
    var policy: HostingPolicy { get }

    /// The files a fetched file names that the platform fetches under the same rules (Android's includes).
    static func includes(of fetch: HostedFetch) -> [String]

    /// The platform's own checks of `fetches` (the host's own file first) after `hosting`, and its details.
    func judge(host: String, fetches: [HostedFetch], hosting: HostingVerdict) -> (checks: [HostedCheck], details: Details)
}

extension HostedFileCheck {
    /// The report for `fetches`, the host's own file first; `hosted` false for a local file, whose hosting
    /// rules are not judged.
    public func check(host: String, fetches: [HostedFetch], hosted: Bool = true) -> HostedReport<Details> {
        let hosting = hosted ? HostingVerdict(fetches[0], policy: policy) : .local(fetches[0])
        let (checks, details) = judge(host: host, fetches: fetches, hosting: hosting)
        return HostedReport(
            url: fetches[0].url,
            checks: hosting.couldNotRun == nil ? hosting.checks + checks : [],
            couldNotRun: hosting.couldNotRun,
            details: details
        )
    }

    /// A local file's report, judged as if `host` served it with 200 and `application/json`: the hosting rules
    /// are not judged, and the files it includes are not fetched.
    public func check(localFile body: [UInt8], path: String, host: String) -> HostedReport<Details> {
        check(host: host, fetches: [.local(body, url: policy.wellKnownURL(host: host), path: path)], hosted: false)
    }
}

/// What a platform adds to a report of its hosted file: its heading, lines, JSON members, and what its `valid`
/// rule found.
public protocol HostedReportDetails: Sendable {
    /// The JUnit suite's name, e.g. `aasa check example.com`.
    var suite: String { get }
    /// The report's first line, the file's URL given.
    func heading(url: String) -> String
    /// What the text report prints after the checks.
    var lines: [String] { get }
    /// The JSON object's members beside `url`, `passed`, `couldNotRun` and `checks`.
    var members: [String: JSONValue] { get }
    /// What the platform's `valid` rule found in the file, one line each: the audit cites them as that rule's
    /// evidence, and reports a `valid` that passed with any as a warning.
    var findings: [String] { get }
}

/// Every check of one host's file for one app, as `aasa check`, `assetlinks check` and the audit read it:
/// the hosting rules, the platform's own, and the platform's details.
public struct HostedReport<Details: HostedReportDetails>: Sendable {
    /// The file's URL, as the platform knows it.
    public let url: String
    /// The checks in order: the hosting rules, then the platform's.
    public let checks: [HostedCheck]
    /// Why the checks could not run (the host did not answer, the CA file is unreadable); nil when they ran.
    public let couldNotRun: String?
    /// What the platform adds.
    public let details: Details

    /// A report.
    public init(url: String, checks: [HostedCheck], couldNotRun: String?, details: Details) {
        self.url = url
        self.checks = checks
        self.couldNotRun = couldNotRun
        self.details = details
    }

    /// The checks that broke.
    public var failures: [HostedCheck] { checks.filter { $0.status == .failed } }

    /// The check of `rule`, when it was made.
    public func check(_ rule: HostedRule) -> HostedCheck? { checks.first { $0.rule == rule.id } }

    /// The report as one JSON object: `url`, `passed`, `couldNotRun`, `checks`, and the platform's members.
    public var json: JSONValue {
        let members: [String: JSONValue] = [
            "url": .string(url),
            "passed": .bool(couldNotRun == nil && failures.isEmpty),
            "couldNotRun": couldNotRun.map(JSONValue.string) ?? .null,
            "checks": .array(checks.map(\.json)),
        ]
        return .object(members.merging(details.members) { own, _ in own })
    }

    /// The report as text: the heading, each check, the platform's lines, and a summary.
    public var textLines: [String] {
        let heading = details.heading(url: url)
        if let couldNotRun { return [heading, "could not run: \(couldNotRun)"] }
        let summary =
            failures.isEmpty
            ? "\(checks.count) checks passed"
            : "\(failures.count) of \(checks.count) checks failed: " + failures.map(\.name).joined(separator: ", ")
        return [heading] + checks.map(\.textLine) + details.lines + [summary]
    }

    /// JUnit XML, as `appflip audit` writes it: one testcase per check.
    public var junitXML: String { HostedCheck.junitXML(suite: details.suite, checks: checks) }
}
