public import AppFlipCore

/// Every check of one host's statement list for one app, each verifier's predicted state per Android
/// generation, the diagnostics of every file read, and drift.
public struct AssetLinksReport: Sendable {
    /// The host checked.
    public let host: String
    /// The statement list's URL, as the verifiers know it.
    public let url: String
    /// The app.
    public let package: String
    public let fingerprints: [String]
    /// The checks in order: hosting rules, `assetlinks.valid`, `assetlinks.delegates`, the verdicts, drift.
    public let checks: [HostedAssociationCheck]
    /// Each verifier's state for the host on each Android generation.
    public let predictions: [AppLinksPredictionRow]
    /// Every statement list read (200 answers), by URL.
    public let documents: [(url: String, list: StatementList)]
    /// The drift from the committed file, when one was given.
    public let drift: AssetLinksDrift?
    /// Why the checks could not run (the host did not answer); nil when they ran.
    public let couldNotRun: String?

    /// The checks that broke.
    public var failures: [HostedAssociationCheck] { checks.filter { $0.status == .failed } }

    /// The report as one JSON object: `host`, `url`, `package`, `passed`, `couldNotRun`, `checks`,
    /// `predictions`, `diagnostics` (each with `url`, `code`, `severity`, `pointer`, `line`, `column`,
    /// `message`), and `drift` (`appeared`, `vanished`, `verdictChanges`) when a committed file was compared.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "host": .string(host),
            "url": .string(url),
            "package": .string(package),
            "passed": .bool(couldNotRun == nil && failures.isEmpty),
            "couldNotRun": couldNotRun.map(JSONValue.string) ?? .null,
            "checks": .array(
                checks.map(\.json)
            ),
            "predictions": .array(
                predictions.map { row in
                    .object([
                        "verifier": .string(row.verifier.rawValue),
                        "generation": .string(row.generation.rawValue),
                        "state": .string(row.verdict.state.description),
                        "reason": .string(row.verdict.reason),
                    ])
                }
            ),
            "diagnostics": .array(
                documents.flatMap { document in
                    document.list.diagnostics.map { diagnostic in
                        .object([
                            "url": .string(document.url),
                            "code": .string(diagnostic.code.rawValue),
                            "severity": .string(diagnostic.severity.rawValue),
                            "pointer": .string(diagnostic.pointer),
                            "line": diagnostic.position.map { .number(Double($0.line)) } ?? .null,
                            "column": diagnostic.position.map { .number(Double($0.column)) } ?? .null,
                            "message": .string(diagnostic.message),
                        ])
                    }
                }
            ),
        ]
        if let drift {
            members["drift"] = .object([
                "appeared": .array(drift.appeared.map(JSONValue.string)),
                "vanished": .array(drift.vanished.map(JSONValue.string)),
                "verdictChanges": .array(drift.verdictChanges.map(JSONValue.string)),
            ])
        }
        return .object(members)
    }

    /// JUnit XML, as `appflip audit` writes it: one testcase per check.
    public var junitXML: String { HostedAssociationCheck.junitXML(suite: "assetlinks check \(host)", checks: checks) }
}
