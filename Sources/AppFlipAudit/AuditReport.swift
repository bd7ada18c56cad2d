public import AppFlipCore

/// What `appflip audit` found: one result per check of the catalogue, in catalogue order, and what could
/// not be reached. It is the `--json` document and the source of the text and JUnit outputs.
public struct AuditReport: Sendable, Hashable, Encodable {
    /// One result per check, in ``AuditCatalogue`` order.
    public private(set) var results: [AuditResult]
    /// Each target or service that could not be reached, in words (the audit could not run fully).
    public var unreachable: [String]
    /// Every HTTP exchange of the run, redacted, in the order sent: what the findings' `#N` name.
    public var exchanges: [RecordedExchange] = []
    /// Every handoff through appflipd, numbered in the same sequence as `exchanges`.
    public var handoffs: [RecordedHandoff] = []

    /// A report of `results` (any order; each check at most once) and what was unreachable. Checks
    /// without a result are recorded as skipped because their target was not given.
    public init(results: [AuditResult], unreachable: [String] = []) {
        let byCheck = Dictionary(results.map { ($0.check, $0) }, uniquingKeysWith: { first, _ in first })
        self.results = AuditCatalogue.all.map { check in
            byCheck[check] ?? AuditResult(check, .skipped, "not run: give \(check.target.needs)")
        }
        self.unreachable = unreachable
    }

    /// The result of `check`.
    public func result(_ check: CheckSpec) -> AuditResult {
        results.first { $0.check == check }!
    }

    /// The checks that ended with `outcome`.
    public func checks(_ outcome: AuditOutcome) -> [CheckSpec] {
        results.filter { $0.outcome == outcome }.map(\.check)
    }

    /// 2 when a rule failed; else 1 when something could not be reached or a need could not be established
    /// for a reason outside the rules; else 0 (warnings allowed).
    public var exitStatus: Int32 {
        if results.contains(where: { $0.outcome == .fail }) { return 2 }
        return unreachable.isEmpty && !results.contains(where: { $0.outcome == .couldNotRun }) ? 0 : 1
    }

    private enum CodingKeys: String, CodingKey {
        case results, unreachable, exitStatus, exchanges
    }

    /// The results, what was unreachable, the exit status, and every exchange and handoff in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results, forKey: .results)
        try container.encode(unreachable, forKey: .unreachable)
        try container.encode(exitStatus, forKey: .exitStatus)
        try container.encode(ExchangeTimeline(exchanges: exchanges, handoffs: handoffs, results: results), forKey: .exchanges)
    }
}
