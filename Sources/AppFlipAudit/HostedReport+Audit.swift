public import AppFlipCore

extension HostedReport {
    /// The checks as `appflip audit` results, each under its own id; a check the audit does not list (a URL's
    /// decision, drift) is left out. The platform's `valid` rule cites what it found, and is a warning when it
    /// passed with findings; any other result's evidence is `RULE at URL: what was seen`, `url` naming the file
    /// (its path, for a local one).
    public func auditResults(valid: HostedRule, at url: String? = nil) -> [AuditResult] {
        let url = url ?? self.url
        let findings = details.findings
        return checks.compactMap { check in
            guard let id = AuditCatalogue.spec(id: check.rule) else { return nil }
            let outcome = check.status.auditOutcome
            guard check.rule == valid.id, outcome != .skipped, !findings.isEmpty else {
                return AuditResult(id, outcome, check.evidence, evidence: ["\(check.rule) at \(url): \(check.evidence)"])
            }
            if outcome == .pass { return AuditResult(id, .warning, "\(url) is valid, with \(findings.count) warning(s)", evidence: findings) }
            return AuditResult(id, outcome, check.evidence, evidence: findings)
        }
    }
}

extension HostedCheck.Status {
    /// The audit's outcome for a check that ended so.
    public var auditOutcome: AuditOutcome {
        switch self {
        case .passed: .pass
        case .failed: .fail
        case .skipped: .skipped
        }
    }
}

extension HostingPolicy {
    /// The audit's hosting checks, skipped: the file is a local one at `path`, and `give` names the option
    /// that checks the hosted one.
    public func auditResultsSkipped(localFile path: String, give option: String) -> [AuditResult] {
        rules.all.compactMap { AuditCatalogue.spec(id: $0.id) }.map {
            AuditResult($0, .skipped, "\(path) is a local file; give \(option) to check the hosted one")
        }
    }
}
