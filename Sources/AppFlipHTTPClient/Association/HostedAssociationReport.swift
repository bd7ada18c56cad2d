public import AppFlipCore

/// Every check of one domain's hosted file for one app: the hosting rules, the app, each URL, and drift.
public struct HostedAssociationReport: Sendable {
    /// The host checked.
    public let domain: String
    /// The URL the file was fetched from.
    public let url: String
    /// The app the file must serve.
    public let appID: String
    /// The checks in order: hosting rules, `file.app-id`, one `url.decision` per URL, `drift`.
    public let checks: [HostedAssociationCheck]
    /// The loader's warnings about the hosted file (skipped entries and components among them).
    public let warnings: [AASADiagnostic]
    /// The drift from the committed file, when one was given and the hosted file loaded.
    public let drift: AssociationDrift?
    /// Why the checks could not run (the host did not answer, the CA file is unreadable); nil when they ran.
    public let couldNotRun: HostedAssociationFailure?

    /// Wraps what a check found.
    public init(
        domain: String,
        url: String,
        appID: String,
        checks: [HostedAssociationCheck],
        warnings: [AASADiagnostic],
        drift: AssociationDrift?,
        couldNotRun: HostedAssociationFailure?
    ) {
        self.domain = domain
        self.url = url
        self.appID = appID
        self.checks = checks
        self.warnings = warnings
        self.drift = drift
        self.couldNotRun = couldNotRun
    }

    /// The checks that broke.
    public var failures: [HostedAssociationCheck] { checks.filter { $0.status == .failed } }

    /// The report as one JSON object: `domain`, `url`, `appId`, `passed`, `couldNotRun`, `checks`, `warnings`,
    /// and `drift` (`appeared`, `vanished`, `changes`) when a committed file was compared.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "domain": .string(domain),
            "url": .string(url),
            "appId": .string(appID),
            "passed": .bool(couldNotRun == nil && failures.isEmpty),
            "couldNotRun": couldNotRun.map { .string($0.description) } ?? .null,
            "checks": .array(
                checks.map(\.json)
            ),
            "warnings": .array(
                warnings.map { .object(["code": .string($0.code.rawValue), "pointer": .string($0.pointer), "message": .string($0.message)]) }
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
        return .object(members)
    }

    /// JUnit XML, as `appflip audit` writes it: one testsuite, one testcase per check, the rule and evidence in
    /// each failure's message and the rule's source in its text; a check that could not be made is skipped.
    public var junitXML: String { HostedAssociationCheck.junitXML(suite: "aasa check \(domain)", checks: checks) }
}
