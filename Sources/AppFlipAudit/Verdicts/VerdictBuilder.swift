import AppFlipCore

/// The one place an outcome is decided: each check's outcome from its needs (``CheckSpec/requires``, then
/// the need it establishes) and its findings. The first unmet need skips the check, naming what would
/// meet it; a need the audit's own input could not establish is could-not-run on the check that establishes
/// it; otherwise a broken MUST fails, a broken SHOULD warns (a SHOULD-level check never fails), and a rule
/// that held passes.
enum VerdictBuilder {
    /// Every check of `checks` from `snapshot`. `stopped`: the run's timeout ran out, and a check that was
    /// not decided says so.
    static func results(_ checks: [CheckSpec], _ snapshot: AuditLedger.Snapshot, stopped: String? = nil) -> [AuditResult] {
        checks.map { result(of: $0, snapshot, stopped: stopped) }
    }

    static func result(of check: CheckSpec, _ snapshot: AuditLedger.Snapshot, stopped: String? = nil) -> AuditResult {
        let findings = snapshot.findings[check] ?? []
        let evidence = findings.flatMap(\.evidence)
        for need in check.requires {
            guard let (state, own) = snapshot.state(of: need, for: check) else {
                return AuditResult(check, .skipped, stopped ?? "needs \(need.rawValue), which nothing established", evidence: evidence)
            }
            if let reason = skipReason(state, need: need, own: own) { return AuditResult(check, .skipped, reason, evidence: evidence) }
        }
        if let need = check.establishes, let (state, _) = snapshot.state(of: need, for: check) {
            switch state {
            case .met: break
            case .notGiven(let why), .nothingToJudge(let why): return AuditResult(check, .skipped, why, evidence: evidence)
            case .couldNotRun(_, let why): return AuditResult(check, .couldNotRun, "could not run: \(why)", evidence: evidence)
            case .brokeRule(let rule, let why) where rule != check:
                return AuditResult(check, .skipped, "\(rule.id) failed: \(why)", evidence: evidence)
            case .brokeRule: break
            }
        }
        return judged(check, findings, evidence: evidence, stopped: stopped)
    }

    /// Why a check that requires `need` is skipped, or nil when the need is met. A check's own shortfall says
    /// its own why; a global one names the check that establishes the need.
    static func skipReason(_ state: NeedState, need: AuditNeed, own: Bool) -> String? {
        let establisher = AuditCatalogue.establisher(of: need)
        switch state {
        case .met:
            return nil
        case .notGiven(let why), .nothingToJudge(let why):
            return why
        case .couldNotRun(_, let why):
            guard !own, let establisher else { return why }
            return "needs \(establisher.id)"
        case .brokeRule(let rule, let why):
            if own { return why }
            guard let establisher else { return "needs \(rule.id): \(why)" }
            return establisher == rule ? "needs \(rule.id)" : "needs \(establisher.id) (\(rule.id) failed)"
        }
    }

    private static func judged(_ check: CheckSpec, _ findings: [Finding], evidence: [String], stopped: String?) -> AuditResult {
        let must = findings.filter { $0.kind == .broke(.must) }
        let broken = findings.filter { if case .broke = $0.kind { true } else { false } }
        let held = findings.filter { $0.kind == .held }
        if !must.isEmpty && check.level == .must {
            return AuditResult(check, .fail, reason(must), evidence: evidence)
        }
        if !broken.isEmpty { return AuditResult(check, .warning, reason(broken), evidence: evidence) }
        if !held.isEmpty { return AuditResult(check, .pass, reason(held), evidence: evidence) }
        return AuditResult(check, .skipped, stopped ?? "nothing was judged", evidence: evidence)
    }

    private static func reason(_ findings: [Finding]) -> String {
        findings.map(\.reason).filter { !$0.isEmpty }.joined(separator: "; ")
    }
}

extension AuditCatalogue {
    /// The check whose verdict establishes `need`, if one does.
    static func establisher(of need: AuditNeed) -> CheckSpec? {
        all.first { $0.establishes == need }
    }
}
