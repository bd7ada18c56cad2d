/// What Android's check adds to the report: the app, each verifier's predicted state per Android generation,
/// every statement list read with its diagnostics, and drift.
public struct AssetLinksReportDetails: HostedReportDetails {
    /// A statement list read: a 200 answer's body, by the URL the verifiers know it by.
    public typealias Document = (url: String, list: StatementList)

    /// The host checked.
    public let host: String
    /// The app's package.
    public let package: String
    /// Each verifier's state for the host on each Android generation.
    public let predictions: [AppLinksPredictionRow]
    /// Every statement list read (200 answers), by URL.
    public let documents: [Document]
    /// The drift from the committed file, when one was given.
    public internal(set) var drift: AssetLinksDrift?

    init(host: String, package: String, predictions: [AppLinksPredictionRow], documents: [Document]) {
        self.host = host
        self.package = package
        self.predictions = predictions
        self.documents = documents
    }

    public var suite: String { "assetlinks check \(host)" }

    public func heading(url: String) -> String { "\(url) for \(package)" }

    /// Every diagnostic of every list read, then each verifier's predicted state.
    public var lines: [String] {
        documents.flatMap { document in document.list.diagnostics.map { "  \(document.url) \($0)" } }
            + ["predicted pm get-app-links state:"]
            + predictions.map { "  \($0.verifier.rawValue) \($0.generation.rawValue): \($0.verdict.state) (\($0.verdict.reason))" }
    }

    /// Every diagnostic of every list read, `URL line:column pointer: severity CODE: message`.
    public var findings: [String] {
        documents.flatMap { document in document.list.diagnostics.map { "\(document.url) \($0)" } }
    }

    /// `host`, `package`, `predictions`, `diagnostics` (each with `url`, `code`, `severity`, `pointer`, `line`,
    /// `column`, `message`), and with a committed file `drift` (`appeared`, `vanished`, `verdictChanges`).
    public var members: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "host": .string(host),
            "package": .string(package),
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
            "diagnostics": .array(documents.flatMap { document in document.list.diagnostics.map { Self.json(document.url, $0) } }),
        ]
        if let drift {
            members["drift"] = .object([
                "appeared": .array(drift.appeared.map(JSONValue.string)),
                "vanished": .array(drift.vanished.map(JSONValue.string)),
                "verdictChanges": .array(drift.verdictChanges.map(JSONValue.string)),
            ])
        }
        return members
    }

    private static func json(_ url: String, _ diagnostic: AssetLinksDiagnostic) -> JSONValue {
        .object([
            "url": .string(url),
            "code": .string(diagnostic.code.rawValue),
            "severity": .string(diagnostic.severity.rawValue),
            "pointer": .string(diagnostic.pointer),
            "line": diagnostic.position.map { .number(Double($0.line)) } ?? .null,
            "column": diagnostic.position.map { .number(Double($0.column)) } ?? .null,
            "message": .string(diagnostic.message),
        ])
    }
}

/// One verifier's predicted `pm get-app-links` state for the host on one Android generation.
public struct AppLinksPredictionRow: Sendable, Hashable {
    public let verifier: AppLinkVerifier
    public let generation: AndroidGeneration
    public let verdict: HostVerdict
}
