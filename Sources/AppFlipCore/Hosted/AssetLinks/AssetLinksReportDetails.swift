/// What Android's check adds to the report: the app, each verifier's predicted state per Android generation,
/// every statement list read with its diagnostics, what the Digital Asset Links API would answer for the
/// same files, and drift.
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
    /// The Digital Asset Links API's reading of the host's statements (`statements.list` with the host's
    /// `https` site as source): its outcome and error codes.
    public let api: GoogleVerifier.Verification
    /// The drift from the committed file, when one was given.
    public internal(set) var drift: AssetLinksDrift?

    init(host: String, package: String, predictions: [AppLinksPredictionRow], documents: [Document], api: GoogleVerifier.Verification) {
        self.host = host
        self.package = package
        self.predictions = predictions
        self.documents = documents
        self.api = api
    }

    public var suite: String { "assetlinks check \(host)" }

    public func heading(url: String) -> String { "\(url) for \(package)" }

    /// Every diagnostic of every list read with the API's code for it, the API's answer, then each verifier's
    /// predicted state.
    public var lines: [String] {
        findings.map { "  \($0)" }
            + ["Digital Asset Links API: \(apiSummary)"]
            + ["predicted pm get-app-links state:"]
            + predictions.map { "  \($0.verifier.rawValue) \($0.generation.rawValue): \($0.verdict.state) (\($0.verdict.reason))" }
    }

    /// `SUCCESS`, or `FETCH_ERROR ERROR_CODE_…, …`, and what appflip could not judge of it.
    public var apiSummary: String {
        let codes = api.errors.isEmpty ? "" : " " + api.errors.map(\.rawValue).joined(separator: ", ")
        let unjudged = api.unjudged.isEmpty ? "" : "not judged: " + api.unjudged.joined(separator: "; ")
        guard let outcome = api.outcome else { return unjudged }
        return outcome + codes + (unjudged.isEmpty ? "" : "; " + unjudged)
    }

    /// Every diagnostic of every list read, `URL line:column pointer: severity CODE: message`, with the API's
    /// error code for it when the API reports one (`[ERROR_CODE_MALFORMED_CONTENT]`).
    public var findings: [String] {
        documents.flatMap { document in
            document.list.diagnostics.map { diagnostic in
                "\(document.url) \(diagnostic)" + (document.list.apiErrorCode(of: diagnostic).map { " [\($0.rawValue)]" } ?? "")
            }
        }
    }

    /// `host`, `package`, `predictions`, `diagnostics` (each with `url`, `code`, `severity`, `pointer`, `line`,
    /// `column`, `message`, `apiErrorCode`), `digitalAssetLinksAPI` (`outcome`, `errorCode`, `notJudged`), and
    /// with a committed file `drift` (`appeared`, `vanished`, `verdictChanges`).
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
            "diagnostics": .array(
                documents.flatMap { document in document.list.diagnostics.map { Self.json(document.url, $0, api: document.list.apiErrorCode(of: $0)) }
                }
            ),
            "digitalAssetLinksAPI": .object([
                "outcome": api.outcome.map(JSONValue.string) ?? .null,
                "errorCode": .array(api.errors.map { .string($0.rawValue) }),
                "notJudged": .array(api.unjudged.map(JSONValue.string)),
            ]),
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

    private static func json(_ url: String, _ diagnostic: AssetLinksDiagnostic, api: GoogleVerifier.ErrorCode?) -> JSONValue {
        .object([
            "url": .string(url),
            "code": .string(diagnostic.code.rawValue),
            "severity": .string(diagnostic.severity.rawValue),
            "pointer": .string(diagnostic.pointer),
            "line": diagnostic.position.map { .number(Double($0.line)) } ?? .null,
            "column": diagnostic.position.map { .number(Double($0.column)) } ?? .null,
            "message": .string(diagnostic.message),
            "apiErrorCode": api.map { .string($0.rawValue) } ?? .null,
        ])
    }
}

/// One verifier's predicted `pm get-app-links` state for the host on one Android generation.
public struct AppLinksPredictionRow: Sendable, Hashable {
    public let verifier: AppLinkVerifier
    public let generation: AndroidGeneration
    public let verdict: HostVerdict
}
