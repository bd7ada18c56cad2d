import AppFlipCore

/// What an artifact check found, before ``VerdictBuilder`` decides its outcome: a rule that held or broke,
/// or why it has nothing to judge, and whose shortfall that is.
enum ArtifactVerdict: Sendable, Equatable {
    case held(String, evidence: [String] = [])
    case broke(String, evidence: [String] = [])
    /// An option the check needs was not given; the text names it.
    case notGiven(String)
    /// The artifacts and files leave the rule nothing to judge.
    case nothingToJudge(String)
    /// The audit's own input failed: a host that does not answer, a CA file that cannot be read.
    case couldNotRun(String)

    /// Records the verdict of `check` in `ledger`, as its own finding or as its own need's state.
    func record(_ check: CheckSpec, in ledger: AuditLedger) {
        let need = AuditNeed(target: check.target)
        switch self {
        case .held(let reason, let evidence): ledger.record(check, .held(reason, evidence: evidence))
        case .broke(let reason, let evidence): ledger.record(check, .fail(reason, evidence: evidence))
        case .notGiven(let why): ledger.set(need, .notGiven(why), for: check)
        case .nothingToJudge(let why): ledger.set(need, .nothingToJudge(why), for: check)
        case .couldNotRun(let why): ledger.set(need, .couldNotRun(.unreachable, why), for: check)
        }
    }
}
