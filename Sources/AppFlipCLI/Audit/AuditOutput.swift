import AppFlipAudit
import AppFlipCore

/// The text output of `appflip audit`: grouped by target, ✔ ✘ ⚠ – per check with its id and a one-line
/// reason (the rule and its source under each failure and warning), then a summary with the failures first.
/// Checks skipped in a row for the same reason share one line, so that a reason is said once. `verbose`
/// adds each check's evidence.
struct AuditOutput {
    var style: OutputStyle
    var verbose: Bool

    func print(_ report: AuditReport) {
        for target in AuditTarget.allCases {
            let results = report.results.filter { $0.check.target == target }
            Swift.print(style.bold(target.title))
            var index = results.startIndex
            while index < results.endIndex {
                let result = results[index]
                let run = results[index...].prefix { $0.outcome == .skipped && $0.reason == result.reason }
                if run.count > 1 && !verbose {
                    Swift.print("  \(mark(.skipped)) \(run.map(\.check.id).joined(separator: ", "))" + style.dim(" — \(result.reason)"))
                    index += run.count
                    continue
                }
                index += 1
                Swift.print("  \(mark(result.outcome)) \(result.check.id)  \(result.check.title)" + style.dim(" — \(result.reason)"))
                if result.outcome == .fail || result.outcome == .warning || result.outcome == .couldNotRun || verbose {
                    Swift.print(style.dim("      rule: \(result.check.rule) (\(result.check.source))"))
                }
                if verbose {
                    for line in result.evidence { Swift.print(style.dim("      · \(line)")) }
                }
            }
            Swift.print("")
        }
        for problem in report.unreachable { Swift.print(style.red("unreachable: ") + problem) }
        let count = { (outcome: AuditOutcome) in report.checks(outcome).count }
        Swift.print(
            style.bold(
                "\(count(.fail)) failed, \(count(.couldNotRun)) could not run, \(count(.warning)) warnings, \(count(.pass)) passed, \(count(.skipped)) skipped"
            )
        )
        for outcome in [AuditOutcome.fail, .couldNotRun, .warning] {
            for result in report.results where result.outcome == outcome {
                Swift.print("  \(mark(outcome)) \(result.check.id): \(result.reason)")
            }
        }
    }

    private func mark(_ outcome: AuditOutcome) -> String {
        switch outcome {
        case .pass: style.green("✔")
        case .fail: style.red("✘")
        case .warning: style.yellow("⚠")
        case .skipped: style.dim("–")
        case .couldNotRun: style.red("!")
        }
    }
}
